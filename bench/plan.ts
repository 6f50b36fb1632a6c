/** How long and how often each figure is measured. */
export interface BenchPlan {
  mode: 'quick' | 'full';
  rebuildSamples: { snapshot: number; full: number };
  /** Commands go to this many accounts at random: many aggregates, each in the aggregate cache once warm. */
  accounts: number;
  warmupMs: number;
  commandMs: number;
  rawCommitMs: number;
  memoryMs: number;
  /** More accounts than the aggregate cache holds (10,000): the sustained run also evicts and reloads. */
  memoryAccounts: number;
}

export const QUICK_PLAN: BenchPlan = {
  mode: 'quick',
  rebuildSamples: { snapshot: 200, full: 5 },
  accounts: 2000,
  warmupMs: 1000,
  commandMs: 2000,
  rawCommitMs: 2000,
  memoryMs: 15_000,
  memoryAccounts: 50_000,
};

export const FULL_PLAN: BenchPlan = {
  mode: 'full',
  rebuildSamples: { snapshot: 1000, full: 20 },
  accounts: 2000,
  warmupMs: 3000,
  commandMs: 10_000,
  rawCommitMs: 10_000,
  memoryMs: 180_000,
  memoryAccounts: 50_000,
};
