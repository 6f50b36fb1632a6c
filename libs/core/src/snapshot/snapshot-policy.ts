import { eventTypeName } from '../decorators/event-type.decorator.js';
import type { SnapshotPolicy, SnapshotPolicyOption } from '../model/snapshot-policy-option.js';

export const DEFAULT_SNAPSHOT_RETAIN = 3;

/** Builds the policy of one aggregate from its own option, falling back to the module default. */
export function createSnapshotPolicy(option: SnapshotPolicyOption | undefined, fallback: SnapshotPolicyOption | undefined): SnapshotPolicy {
  const chosen = option ?? fallback ?? 'none';
  if (chosen === 'none') return { enabled: false, retain: DEFAULT_SNAPSHOT_RETAIN, isDue: () => false };
  const every = chosen.every;
  if (every !== undefined && (!Number.isInteger(every) || every < 1)) {
    throw new Error(`snapshot.every must be a positive integer, got ${every}`);
  }
  const onTypes = new Set((chosen.onEvents ?? []).map((event) => eventTypeName(event)));
  const retain = chosen.retain ?? DEFAULT_SNAPSHOT_RETAIN;
  if (!Number.isInteger(retain) || retain < 1) throw new Error(`snapshot.retain must be a positive integer, got ${retain}`);
  return {
    enabled: true,
    retain,
    // Crossing rule: an append of several events that passes a multiple of N still counts.
    isDue: (from, to, types) =>
      (every !== undefined && Math.floor(to / every) > Math.floor(from / every)) || types.some((type) => onTypes.has(type)),
  };
}
