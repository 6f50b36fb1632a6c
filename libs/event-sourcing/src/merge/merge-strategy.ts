/** How a command is treated when the aggregate moved past the sequence the caller saw (DESIGN.md section 5). */
export enum MergeStrategy {
  COMMUTATIVE = 'commutative',
  STRICT = 'strict',
  AGGREGATE_HANDLES = 'aggregate_handles',
  MANUAL = 'manual',
}

export function parseMergeStrategy(value: string): MergeStrategy | undefined {
  const normalized = value.trim().toLowerCase();
  return (Object.values(MergeStrategy) as string[]).includes(normalized) ? (normalized as MergeStrategy) : undefined;
}
