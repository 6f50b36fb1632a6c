export type MergeDecision = { proceed: true; events: object[] } | { proceed: false; reason: string };

/** AGGREGATE_HANDLES: the command may go ahead with these events on the actual state. */
export function proceed(events: object | object[]): MergeDecision {
  return { proceed: true, events: Array.isArray(events) ? events : [events] };
}

/** AGGREGATE_HANDLES: the command is refused (SEQUENCE_MISMATCH with this reason). */
export function reject(reason: string): MergeDecision {
  return { proceed: false, reason };
}
