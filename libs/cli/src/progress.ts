import { Presets, SingleBar } from 'cli-progress';

/** Progress of long work: a bar on a terminal, a line every few seconds when piped or logged. */
export interface Progress {
  start(total: number, payload?: Record<string, unknown>): void;
  update(value: number, payload?: Record<string, unknown>): void;
  setTotal(total: number): void;
  stop(): void;
}

const LINE_INTERVAL_MS = 2000;

export function createProgress(format: string, describe: (value: number, total: number, payload: Record<string, unknown>) => string): Progress {
  if (process.stderr.isTTY) {
    const bar = new SingleBar({ format, hideCursor: true, stream: process.stderr }, Presets.shades_classic);
    return {
      start: (total, payload) => bar.start(total, 0, payload),
      update: (value, payload) => bar.update(value, payload),
      setTotal: (total) => bar.setTotal(total),
      stop: () => bar.stop(),
    };
  }
  let total = 0;
  let last = 0;
  let lastValue = 0;
  let lastPayload: Record<string, unknown> = {};
  const print = () => console.error(describe(lastValue, total, lastPayload));
  return {
    start: (value, payload = {}) => {
      total = value;
      lastPayload = payload;
      last = Date.now();
      print();
    },
    update: (value, payload) => {
      lastValue = value;
      if (payload) lastPayload = { ...lastPayload, ...payload };
      if (Date.now() - last >= LINE_INTERVAL_MS) {
        last = Date.now();
        print();
      }
    },
    setTotal: (value) => {
      total = value;
    },
    stop: () => print(),
  };
}
