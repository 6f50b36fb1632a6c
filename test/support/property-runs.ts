/**
 * How many cases a property suite tries: its size for CI by default, PROPERTY_RUNS when set
 * (`npm run test:property` runs them larger).
 */
export function propertyRuns(ciRuns: number): number {
  const asked = Number(process.env.PROPERTY_RUNS);
  return Number.isInteger(asked) && asked > 0 ? asked : ciRuns;
}

/**
 * A property suite's Jest timeout: a guard against a hang, not a time budget, so it grows with the
 * runs and leaves a loaded CI machine ten times the time the suite takes alone.
 */
export function propertyTimeoutMs(runs: number, aloneMsPerRun: number): number {
  return Math.max(120_000, runs * aloneMsPerRun * 10);
}
