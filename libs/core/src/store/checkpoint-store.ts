/**
 * An event a subscriber's checkpoint moved past without handling it yet: it failed (and is being
 * retried), or an earlier event of its key (aggregate, or process instance) is held. Committed with the checkpoint move, so the
 * checkpoint and the held events together say exactly what the read model holds.
 */
export interface HeldEvent {
  /** The checkpoint name (of the subscriber, or of one of its partitions). */
  subscriber: string;
  position: number;
  aggregateType: string;
  aggregateId: string;
}

/**
 * Where each subscriber is in the store (the position of the last event it finished), and the commit
 * that moves it: the one port every subscriber kind checkpoints through. A commit runs in `run`'s
 * transaction; a projector's read-model writes share it when they share the database, so its effects
 * happen exactly once. `Tx` is what projectors get as `ctx.tx` and `reset` (TypeORM: an EntityManager).
 */
export interface CheckpointStore<Tx = unknown> {
  /** 0 when the subscriber never ran. */
  load(subscriber: string): Promise<number>;
  /** Outside a commit: a position the subscriber reached over events it ignores (never behind a commit). */
  save(subscriber: string, position: number): Promise<void>;
  /** Every subscriber's checkpoint, for sync waits and progress reports. */
  loadAll(): Promise<Map<string, number>>;
  /** The held events of one checkpoint (or of all), in position order. */
  loadHeld(subscriber?: string): Promise<HeldEvent[]>;
  /** Runs `work` in one transaction; a throw rolls it back. */
  run<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * On its own, outside `run`: moves the subscriber's checkpoint from `from` to `to` as one write (a
   * commit with nothing else in it, as sagas and process managers make); false when it is not at `from`.
   */
  moveCheckpoint(subscriber: string, from: number, to: number): Promise<boolean>;
  /** Inside `run`: moves the subscriber's checkpoint from `from` to `to`; false when it is not at `from` (another instance moved it). */
  advanceCheckpoint(tx: Tx, subscriber: string, from: number, to: number): Promise<boolean>;
  /** Inside `run`: back to position 0 (a rebuild), together with the read model's clearing; its held events go too. */
  resetCheckpoint(tx: Tx, subscriber: string): Promise<void>;
  /** Inside `run`, with the checkpoint move past it: records the event as held (not handled yet). */
  holdEvent(tx: Tx, event: HeldEvent): Promise<void>;
  /** Inside `run`, with the event's handling: no longer held; false when it was not (another instance released it). */
  releaseEvent(tx: Tx, subscriber: string, position: number): Promise<boolean>;
}

export const CHECKPOINT_STORE = Symbol('CHECKPOINT_STORE');
