import type { InjectionToken } from '@nestjs/common';
import type { CheckpointStore } from '../store/checkpoint-store.js';
import type { DeadLetterStore } from '../store/dead-letter-store.js';
import type { EventStore } from '../store/event-store.js';
import type { PartitionLeases } from '../store/partition-leases.js';
import type { SnapshotStore } from '../store/snapshot-store.js';
import type { TimerStore } from '../store/timer-store.js';
import type { WakeChannel } from '../store/wake-channel.js';
import type { ReadModelTables } from '../store/read-model-tables.js';

/** Every port the runtime runs on, as an adapter opened them. `Tx` is the handle projectors receive. */
export interface AdapterPorts<Tx = unknown> {
  events: EventStore;
  snapshots: SnapshotStore;
  /** Checkpoints, held events and the commit that moves them; `Tx` is the commit's transaction. */
  checkpoints: CheckpointStore<Tx>;
  deadLetters: DeadLetterStore;
  timers: TimerStore;
  /** Who runs which subscriber partition; default: this process runs them all. */
  leases?: PartitionLeases;
  /** Wake-ups from other instances' appends; default none (polling is the backstop). */
  wakeChannel?: WakeChannel;
  /** Table steps of a blue/green projection rebuild, in the checkpoints' transaction; default none (no blue/green rebuilds). */
  readModelTables?: ReadModelTables<Tx>;
  /**
   * True when the stores' writes run on the event loop and hold it while they last (a synchronous
   * driver, such as better-sqlite3): projectors then wait for the batch that this process's sagas and
   * process managers have in hand before taking theirs, so that a workflow's hops follow one another
   * and one projection covers several. Default false: a projection runs while a workflow waits for
   * the database.
   */
  writesHoldEventLoop?: boolean;
}

/** What an adapter may ask of the application while it opens. */
export interface AdapterContext {
  /**
   * A provider of the application by one of the tokens the adapter `requires` (a DataSource that
   * another module registered, say), once that provider is ready (async factories included).
   */
  resolve<T = unknown>(token: InjectionToken): T;
}

/**
 * A storage integration as one object: it opens its connections and every port at boot, and closes
 * what it opened at shutdown. `inMemory()` is one; `@nest-es/typeorm`'s `typeorm()` is another; an
 * application's own goes through the same door (see the contract suites in `@nest-es/core/testing`).
 */
export interface EventSourcingAdapter<Tx = unknown> {
  /** Shown in boot errors and logs. */
  readonly name: string;
  /** Providers of the application the adapter needs when it opens (given to `context.resolve`). */
  readonly requires?: readonly InjectionToken[];
  open(context: AdapterContext): Promise<AdapterPorts<Tx>>;
  /** Closes what `open` opened (not what the application handed in). */
  close(): Promise<void>;
  /** Tokens the adapter makes injectable in the application once open (its DataSources, say). */
  readonly provides?: readonly InjectionToken[];
  /** After `open`: the value behind one of `provides`. */
  provided?(token: InjectionToken): unknown;
}
