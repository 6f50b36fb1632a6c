export interface Distribution {
  p50Ms: number;
  p99Ms: number;
  samples: number;
}

/** The index of the `q` quantile (0 to 1) among `length` sorted values, by nearest rank. */
export function nearestRank(q: number, length: number): number {
  return Math.min(length - 1, Math.max(0, Math.ceil(q * length) - 1));
}

/** Nearest-rank percentiles of durations in milliseconds. */
export function distribution(durationsMs: readonly number[]): Distribution {
  const sorted = Float64Array.from(durationsMs).sort();
  const at = (q: number) => round(sorted[nearestRank(q, sorted.length)]);
  return { p50Ms: at(0.5), p99Ms: at(0.99), samples: sorted.length };
}

/** The arithmetic mean; 0 for none. */
export function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

/** Three significant figures are all a benchmark on a shared machine can claim. */
export function round(value: number): number {
  return Number(value.toPrecision(3));
}

/** Runs `work` `times` times one after another; the duration of each. */
export async function timeEach(times: number, work: (index: number) => Promise<unknown>): Promise<number[]> {
  const durations: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await work(i);
    durations.push(performance.now() - started);
  }
  return durations;
}

/** Milliseconds since the epoch at sub-millisecond resolution: comparable between processes of one machine. */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}
