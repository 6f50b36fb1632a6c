// @nest-es/core/adapter: what writing an adapter takes: the ports, the types of their calls and the
// errors they raise. The contract suites that check an adapter are in `@nest-es/core/testing`.
export type { AdapterContext, AdapterPorts, EventSourcingAdapter } from './event-sourcing-adapter.js';
export {
  EVENT_STORE,
  type AppendRequest,
  type AppendResult,
  type CommandRecord,
  type EventPage,
  type EventStore,
  type ReadAllOptions,
  type ReadPartitionOptions,
  type ReadStreamOptions,
  type StreamIdsOptions,
  type PartitionReads,
  type CorrelationReads,
  type StreamListing,
  type ExternalIdLookup,
  type StreamLoads,
  type LoadStreamOptions,
  type LoadedStream,
  type CapableEventStore,
} from '../store/event-store.js';
export type { EventMetadata, NewEvent, StoredEvent, StreamId } from '../model/event-envelope.js';
export type { Partition } from '../model/key-partition.js';
export { CorruptSnapshotError, type Snapshot, type SnapshotStore } from '../store/snapshot-store.js';
export type { CheckpointStore, HeldEvent } from '../store/checkpoint-store.js';
export type { DeadLetter, DeadLetterKind, DeadLetterQuery, DeadLetterStatus, DeadLetterStore, NewDeadLetter } from '../store/dead-letter-store.js';
export type { ProcessTimer, ScheduledTimer, TimerStore } from '../store/timer-store.js';
export type { Membership, PartitionLeases } from '../store/partition-leases.js';
export type { WakeChannel, WakeKind } from '../store/wake-channel.js';
export type { ReadModelTables } from '../store/read-model-tables.js';
export { ConcurrencyError, DuplicateCommandError, DuplicateExternalIdError } from '../store/store-errors.js';
export type { AdapterEventStore, EventStoreCapability } from '../store/event-store-capabilities.js';
