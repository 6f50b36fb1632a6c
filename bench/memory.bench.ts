import type { INestApplicationContext } from '@nestjs/common';
import { measureCommands } from './command.bench.js';
import { collectGarbage } from './gc.js';
import { round } from './stats.js';

export interface MemoryFigures {
  durationS: number;
  concurrency: number;
  accounts: number;
  commands: number;
  /** The first and the last window of the run, over which the RSS peaks are taken. */
  windowS: number;
  rssStartMb: number;
  rssEndMb: number;
  /**
   * The heap still in use after a full collection at the end of the first window and at the end of the
   * run: what grows if something is kept per command. Peaks also hold garbage, and V8 lets the heap grow
   * before it collects, so they rise for a while on their own.
   */
  heapLiveStartMb: number;
  heapLiveEndMb: number;
}

const SAMPLE_EVERY_MS = 250;
const MB = 2 ** 20;

/** A sustained command run over more accounts than the aggregate cache holds, so it also evicts and reloads. */
export async function measureMemory(
  app: INestApplicationContext,
  run: { durationMs: number; windowMs: number; concurrency: number; accounts: number },
): Promise<MemoryFigures> {
  const samples: { at: number; rss: number }[] = [];
  let heapLiveStart = 0;
  collectGarbage();
  const started = performance.now();
  const sampler = setInterval(() => samples.push({ at: performance.now() - started, rss: process.memoryUsage().rss }), SAMPLE_EVERY_MS);
  const firstWindowEnd = setTimeout(() => {
    collectGarbage();
    heapLiveStart = process.memoryUsage().heapUsed;
  }, run.windowMs);
  try {
    const commands = await measureCommands(app, run.concurrency, run.durationMs, run.accounts);
    collectGarbage();
    const heapLiveEnd = process.memoryUsage().heapUsed;
    const peakRss = (from: number, to: number) => round(Math.max(...samples.filter((s) => s.at >= from && s.at < to).map((s) => s.rss)) / MB);
    return {
      durationS: round(run.durationMs / 1000),
      concurrency: run.concurrency,
      accounts: run.accounts,
      commands: commands.samples,
      windowS: round(run.windowMs / 1000),
      rssStartMb: peakRss(0, run.windowMs),
      rssEndMb: peakRss(run.durationMs - run.windowMs, Infinity),
      heapLiveStartMb: round(heapLiveStart / MB),
      heapLiveEndMb: round(heapLiveEnd / MB),
    };
  } finally {
    clearInterval(sampler);
    clearTimeout(firstWindowEnd);
  }
}
