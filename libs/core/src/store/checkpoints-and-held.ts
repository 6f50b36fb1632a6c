import type { CheckpointStore, HeldEvent } from './checkpoint-store.js';

/** Every checkpoint with every held event, as of one moment they agree on. */
export interface CheckpointsAndHeld {
  positions: Map<string, number>;
  held: HeldEvent[];
}

/**
 * The checkpoints first, then the held events: a hold commits with its checkpoint's move, so a move
 * the first read saw comes with its holds unless they were settled since. Read side by side (on
 * PostgreSQL, two connections), a hold committed between the two would show a checkpoint past an
 * event it still holds.
 */
export async function loadCheckpointsAndHeld(checkpoints: CheckpointStore): Promise<CheckpointsAndHeld> {
  const positions = await checkpoints.loadAll();
  return { positions, held: await checkpoints.loadHeld() };
}
