/**
 * An event a projector's checkpoint moved past without projecting it yet: it failed (and is being
 * retried), or an earlier event of its aggregate is held. Committed with the checkpoint move, so the
 * checkpoint and the held events together say exactly what the read model holds.
 */
export interface HeldEvent {
  /** The checkpoint name (of the subscriber, or of one of its partitions). */
  subscriber: string;
  position: number;
  aggregateType: string;
  aggregateId: string;
}

/** Where each subscriber is in the store: the position of the last event it finished. */
export interface CheckpointStore {
  /** 0 when the subscriber never ran. */
  load(subscriber: string): Promise<number>;
  save(subscriber: string, position: number): Promise<void>;
  /** Every subscriber's checkpoint, for sync waits and progress reports. */
  loadAll(): Promise<Map<string, number>>;
  /** The held events of one checkpoint (or of all), in position order. */
  loadHeld(subscriber?: string): Promise<HeldEvent[]>;
}

export const CHECKPOINT_STORE = Symbol('CHECKPOINT_STORE');
