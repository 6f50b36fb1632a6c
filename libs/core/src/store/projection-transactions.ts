import type { HeldEvent } from './checkpoint-store.js';

/**
 * The port through which projectors get a transaction: a projector's read-model writes and its
 * checkpoint move commit together when they share a database, so its effects happen exactly once.
 * `Tx` is what the projector's `@OnEvent` methods and `reset` receive (TypeORM: an EntityManager).
 */
export interface ProjectionTransactions<Tx = unknown> {
  /** Runs `work` in one transaction; a throw rolls it back. */
  run<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Inside `run`: moves the subscriber's checkpoint from `from` to `to`; false when it is not at `from` (another instance moved it). */
  advanceCheckpoint(tx: Tx, subscriber: string, from: number, to: number): Promise<boolean>;
  /** Inside `run`: back to position 0 (a rebuild), together with the read model's clearing; its held events go too. */
  resetCheckpoint(tx: Tx, subscriber: string): Promise<void>;
  /** Inside `run`, with the checkpoint move past it: records the event as held (not projected yet). */
  holdEvent(tx: Tx, event: HeldEvent): Promise<void>;
  /** Inside `run`, with the event's projection: no longer held; false when it was not (another instance released it). */
  releaseEvent(tx: Tx, subscriber: string, position: number): Promise<boolean>;
}

export const PROJECTION_TRANSACTIONS = Symbol('PROJECTION_TRANSACTIONS');
