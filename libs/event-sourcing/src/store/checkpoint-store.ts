/** Where each subscriber is in the store: the position of the last event it finished. */
export interface CheckpointStore {
  /** 0 when the subscriber never ran. */
  load(subscriber: string): Promise<number>;
  save(subscriber: string, position: number): Promise<void>;
  /** Every subscriber's checkpoint, for sync waits and progress reports. */
  loadAll(): Promise<Map<string, number>>;
}

export const CHECKPOINT_STORE = Symbol('CHECKPOINT_STORE');
