import type { ClassProvider, ExistingProvider, FactoryProvider, ValueProvider } from '@nestjs/common';
import type { CheckpointStore } from '../store/checkpoint-store.js';
import type { DeadLetterStore } from '../store/dead-letter-store.js';
import type { EventStore } from '../store/event-store.js';
import type { PartitionLeases } from '../store/partition-leases.js';
import type { ProjectionTransactions } from '../store/projection-transactions.js';
import type { SnapshotStore } from '../store/snapshot-store.js';
import type { TimerStore } from '../store/timer-store.js';
import type { WakeChannel } from '../store/wake-channel.js';

/** A Nest provider without its token: `{useValue}`, `{useClass}`, `{useFactory, inject}` or `{useExisting}`. */
export type StoreProvider<T> =
  | Omit<ValueProvider<T>, 'provide'>
  | Omit<ClassProvider<T>, 'provide'>
  | Omit<FactoryProvider<T>, 'provide'>
  | Omit<ExistingProvider<T>, 'provide'>;

/**
 * The stores the framework runs on, as providers: the TypeORM adapter is used when none are
 * given; `inMemoryStores()` is another adapter; an application may supply its own.
 */
export interface EventSourcingStores {
  event: StoreProvider<EventStore>;
  snapshot: StoreProvider<SnapshotStore>;
  checkpoint: StoreProvider<CheckpointStore>;
  deadLetter: StoreProvider<DeadLetterStore>;
  timer: StoreProvider<TimerStore>;
  projectionTransactions: StoreProvider<ProjectionTransactions>;
  /** Who runs which subscriber partition; default: this process runs them all. */
  partitionLeases?: StoreProvider<PartitionLeases>;
  /** Wake-ups from other instances' appends; default none (polling only). */
  wakeChannel?: StoreProvider<WakeChannel | null>;
}

/** Module options that take providers, so they are given to `forRoot` / `forRootAsync` directly (not by the factory). */
export interface EventSourcingModuleStoresOption {
  /** The stores as providers (`inMemoryStores()`, or the application's own); default: TypeORM on `store`. */
  stores?: EventSourcingStores;
}
