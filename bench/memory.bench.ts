import type { INestApplicationContext } from '@nestjs/common';
import { measureCommands } from './command.bench.js';
import { collectGarbage } from './rebuild.bench.js';
import { round } from './stats.js';

export interface MemoryFigures {
  durationS: number;
  concurrency: number;
  accounts: number;
  commands: number;
  /** Window the first and last peaks are taken over (a minute, or a fifth of a short run). */
  windowS: number;
  rssStartMb: number;
  rssEndMb: number;
  heapStartMb: number;
  heapEndMb: number;
}

const SAMPLE_EVERY_MS = 250;

/** Peak RSS and heap in the first and the last window of a sustained command run (more accounts than the aggregate cache holds). */
export async function measureMemory(app: INestApplicationContext, durationMs: number, concurrency: number, accounts: number): Promise<MemoryFigures> {
  const windowMs = Math.min(60_000, durationMs / 5);
  const samples: { at: number; rss: number; heap: number }[] = [];
  collectGarbage();
  const started = performance.now();
  const sampler = setInterval(() => {
    const { rss, heapUsed } = process.memoryUsage();
    samples.push({ at: performance.now() - started, rss, heap: heapUsed });
  }, SAMPLE_EVERY_MS);
  try {
    const run = await measureCommands(app, concurrency, durationMs, accounts);
    const peak = (from: number, to: number, key: 'rss' | 'heap') =>
      round(Math.max(...samples.filter((s) => s.at >= from && s.at < to).map((s) => s[key])) / 2 ** 20);
    const last = durationMs - windowMs;
    return {
      durationS: round(durationMs / 1000),
      concurrency,
      accounts,
      commands: run.samples,
      windowS: round(windowMs / 1000),
      rssStartMb: peak(0, windowMs, 'rss'),
      rssEndMb: peak(last, durationMs + SAMPLE_EVERY_MS, 'rss'),
      heapStartMb: peak(0, windowMs, 'heap'),
      heapEndMb: peak(last, durationMs + SAMPLE_EVERY_MS, 'heap'),
    };
  } finally {
    clearInterval(sampler);
  }
}
