import type { Type } from '@nestjs/common';

/**
 * When to persist a snapshot of an aggregate. `'none'` never; otherwise any of:
 * `every` N events (fires when an append crosses a multiple of N), `onEvents` of these types.
 * A command handler may always hand back state itself (`withSnapshot`).
 */
export type SnapshotPolicyOption =
  | 'none'
  | {
      every?: number;
      onEvents?: Type[];
      /** Snapshots kept per aggregate (newest first). Default 3. */
      retain?: number;
    };

/** The policy built from an option: whether an append calls for a snapshot. */
export interface SnapshotPolicy {
  readonly enabled: boolean;
  /** Snapshots kept per aggregate. */
  readonly retain: number;
  /** Whether an append that moved the aggregate from `fromSequence` to `toSequence` with these event types calls for one. */
  isDue(fromSequence: number, toSequence: number, eventTypes: readonly string[]): boolean;
}
