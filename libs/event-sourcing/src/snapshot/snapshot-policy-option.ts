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
