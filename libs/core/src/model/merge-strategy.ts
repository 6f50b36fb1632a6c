/** The built-in ways a command is treated when the aggregate moved past the sequence the caller saw. */
export enum MergeStrategy {
  COMMUTATIVE = 'commutative',
  STRICT = 'strict',
  AGGREGATE_HANDLES = 'aggregate_handles',
  MANUAL = 'manual',
}

/** A built-in strategy or the name of one registered with `@CustomMergeStrategy(name)`. */
export type MergeStrategyName = MergeStrategy | (string & {});

/** Strategy names are case-insensitive: this is the form they are registered and looked up under. */
export function normalizeMergeStrategy(value: string): MergeStrategyName {
  return value.trim().toLowerCase();
}

/** The built-in strategy named `value` (any case), if it is one. */
export function parseMergeStrategy(value: string): MergeStrategy | undefined {
  const normalized = normalizeMergeStrategy(value);
  return (Object.values(MergeStrategy) as string[]).includes(normalized) ? (normalized as MergeStrategy) : undefined;
}
