/** What a wake-up between instances says happened: events were appended, or a checkpoint moved. */
export type WakeKind = 'append' | 'checkpoint';

/**
 * Wake-ups between instances sharing one store. They only make things fast (a subscription or a sync
 * wait stops sleeping); the store stays the truth, and polling stays the backstop when one is lost.
 */
export interface WakeChannel {
  /** Starts listening (retrying in the background when the database is away); `onWake` gets what other instances announced. */
  listen(onWake: (kind: WakeKind) => void): Promise<void>;
  /** Tells the other instances; never throws (a lost wake-up costs one poll interval). */
  announce(kind: WakeKind): void;
  close(): Promise<void>;
}

/** The store's channel, or null when the store has none (SQLite: one process). */
export const WAKE_CHANNEL = Symbol('WAKE_CHANNEL');
