
// The module and its options
export { EventSourcingModule, type EventSourcingModuleAsyncOptions, type EventSourcingModuleStaticOptions } from './module/event-sourcing.module.js';
export type { EventSourcingModuleOptions, ProcessingOptions, ScaleOutOptions } from './config/event-sourcing-options.js';

// Adapters: one object supplies every store port
export type { AdapterContext, AdapterPorts, EventSourcingAdapter } from './adapter/event-sourcing-adapter.js';
export { inMemory } from './adapter/in-memory-adapter.js';

// Decorators
export { Aggregate } from './decorators/aggregate.decorator.js';
export { AggregateId } from './decorators/aggregate-id.decorator.js';
export { Apply } from './decorators/apply.decorator.js';
export { CommandHandler } from './decorators/command-handler.decorator.js';
export { MergeHandler } from './decorators/merge-handler.decorator.js';
export { MergeStrategyInterceptor } from './decorators/merge-strategy-interceptor.decorator.js';
export { EventType, type EventTypeOptions, type Upcaster } from './decorators/event-type.decorator.js';
export { EventSaga, OnEvent, OnRejected, OnTimeout, ProcessManager, Projector, Saga } from './decorators/subscriber.decorators.js';
export type { AggregateOptions, CommandHandlerOptions } from './decorators/decorator-types.js';
export type { ProcessManagerOptions, SubscriberKind, SubscriberOptions } from './decorators/subscriber-types.js';

// What handlers receive and return
export type { CommandContext } from './model/command-context.js';
export { withSnapshot, type HandlerResult, type HandlerResultWithSnapshot } from './model/handler-result.js';
export { proceed, reject, type MergeDecision } from './model/merge-decision.js';
export { MergeStrategy, type MergeStrategyName } from './model/merge-strategy.js';
export { Merge, type MergeConflict, type MergeInterceptor, type MergeVerdict } from './merge/merge-interceptor.js';
export type { SnapshotPolicyOption } from './model/snapshot-policy-option.js';
export {
  emit,
  fact,
  type CommandEmission,
  type CommandRejection,
  type Emission,
  type FactEmission,
  type ProcessContext,
  type ProcessReaction,
  type TimerRequest,
} from './processing/emissions.js';

// Who may send and read what
export type { Principal } from './model/principal.js';
export { COMMAND_AUTHORIZER, type CommandAuthorization, type CommandAuthorizer } from './model/command-authorizer.js';
export type { AggregateView, ReadContext } from './model/aggregate-view.js';

// Sending commands and reading aggregates
export { CommandGateway } from './command/command-gateway.js';
export { SyncMode, type CommandResult, type SendOptions } from './model/send-options.js';
export { validateCommand } from './command/command-validation.js';
export { AggregateReader, type AggregateSnapshotView } from './command/aggregate-reader.js';
export type { EventMetadata, NewEvent, StoredEvent, StreamId } from './model/event-envelope.js';

// Errors
export { ErrorCode } from './errors/error-code.js';
export {
  AbortedError,
  EventSourcingError,
  FailedPreconditionError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  SequenceMismatchError,
  SyncTimeoutError,
  UnauthenticatedError,
  UnavailableError,
  UnsupportedMediaTypeError,
} from './errors/event-sourcing.error.js';
export { BootValidationError } from './discovery/boot-validation.error.js';
export { ConcurrencyError, DuplicateCommandError, DuplicateExternalIdError } from './store/store-errors.js';

// Stores: ports and their injection tokens
export {
  EVENT_STORE,
  EVENT_STORE_ADAPTER,
  type AppendRequest,
  type AppendResult,
  type CommandRecord,
  type EventPage,
  type EventStore,
  type ReadAllOptions,
  type ReadPartitionOptions,
  type ReadStreamOptions,
  type StreamIdsOptions,
} from './store/event-store.js';
export type { Partition } from './model/key-partition.js';
export { SNAPSHOT_STORE, CorruptSnapshotError, type Snapshot, type SnapshotStore } from './store/snapshot-store.js';
export { CHECKPOINT_STORE, type CheckpointStore, type HeldEvent } from './store/checkpoint-store.js';
export { DEAD_LETTER_STORE, type DeadLetter, type DeadLetterKind, type DeadLetterQuery, type DeadLetterStatus, type DeadLetterStore, type NewDeadLetter } from './store/dead-letter-store.js';
export { TIMER_STORE, type ProcessTimer, type TimerStore } from './store/timer-store.js';
export { PROJECTION_TRANSACTIONS, type ProjectionTransactions } from './store/projection-transactions.js';

// The in-memory adapter's stores (to wrap or to test against)
export { InMemoryEventStore } from './store/memory/in-memory-event-store.js';
export { InMemorySnapshotStore } from './store/memory/in-memory-snapshot-store.js';
export { InMemoryCheckpointStore } from './store/memory/in-memory-checkpoint-store.js';
export { InMemoryDeadLetterStore } from './store/memory/in-memory-dead-letter-store.js';
export { InMemoryTimerStore } from './store/memory/in-memory-timer-store.js';
export { InMemoryProjectionTransactions } from './store/memory/in-memory-projection-transactions.js';

// Operations: dead letters and rebuilds
export { DeadLetterService, type DeadLetterFilter, type DeadLetterPage, type RetriedDeadLetter } from './dead-letter/dead-letter.service.js';
export { SnapshotRebuilder, type RebuildProgress, type RebuildSummary } from './maintenance/snapshot-rebuilder.js';
export { ProjectionRebuilder, type ProjectionRebuildProgress, type ProjectionRebuildSummary } from './maintenance/projection-rebuilder.js';
