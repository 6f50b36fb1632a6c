
// The module and its options
export { EventSourcingModule, type EventSourcingModuleAsyncOptions, type EventSourcingModuleStaticOptions } from './module/event-sourcing.module.js';
export type { EventSourcingModuleOptions, LiveQueryOptions, ProcessingOptions, ScaleOutOptions } from './config/event-sourcing-options.js';

// Adapters: one object supplies every store port (writing one: `@nest-es/core/adapter`)
export type { EventSourcingAdapter } from './adapter/event-sourcing-adapter.js';
export { inMemory } from './adapter/in-memory-adapter.js';

// Decorators
export { Aggregate } from './decorators/aggregate.decorator.js';
export { AggregateId } from './decorators/aggregate-id.decorator.js';
export { Apply } from './decorators/apply.decorator.js';
export { CommandHandler } from './decorators/command-handler.decorator.js';
export { MergeHandler } from './decorators/merge-handler.decorator.js';
export { CustomMergeStrategy } from './decorators/custom-merge-strategy.decorator.js';
export { EventType, type EventTypeOptions, type Upcaster } from './decorators/event-type.decorator.js';
export { OnEvent, OnRejected, OnTimeout, ProcessManager, Projector, Saga } from './decorators/subscriber.decorators.js';
export type { AggregateOptions, CommandHandlerOptions } from './decorators/decorator-types.js';
export type { InstanceKey, OnEventOptions, ProcessManagerOptions, SubscriberOptions } from './decorators/subscriber-types.js';

// What handlers receive and return
export type { CommandContext } from './model/command-context.js';
export { withSnapshot, type HandlerResult, type HandlerResultWithSnapshot } from './model/handler-result.js';
export { proceed, reject, type MergeDecision } from './model/merge-decision.js';
export { MergeStrategy, type MergeStrategyName } from './model/merge-strategy.js';
export { Merge, type MergeConflict, type MergeStrategyHandler, type MergeVerdict } from './merge/merge-strategy-handler.js';
export type { SnapshotPolicyOption } from './model/snapshot-policy-option.js';
export {
  emit,
  fact,
  type CommandEmission,
  type CommandRejection,
  type Emission,
  type FactEmission,
  type EmitOptions,
  type ProcessReaction,
  type TimerRequest,
} from './processing/emissions.js';

export type { EventContext, ProcessContext, ProjectionContext, SagaContext } from './processing/subscriber-context.js';
export { LiveQueries } from './live/live-queries.js';
export type { LiveMessage, LiveQueryTrigger } from './live/live-watcher.js';
export type { CommandFields } from './model/command-fields.js';

// Who may send and read what
export type { Principal } from './model/principal.js';
export type { CommandAuthorization, CommandAuthorizer } from './model/command-authorizer.js';
export type { AggregateView, ReadContext } from './model/aggregate-view.js';

// Sending commands and reading aggregates
export { CommandGateway } from './command/command-gateway.js';
export type { CommandStep } from './command/sync-waiter.js';
export { SyncMode, type CommandResult, type SendOptions } from './model/send-options.js';
export { validateCommand } from './command/command-validation.js';
export { AggregateReader, type AggregateSnapshotView } from './reading/aggregate-reader.js';
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

// Reading the store (the port's other types, for adapters: `@nest-es/core/adapter`)
export { EVENT_STORE, type EventStore } from './store/event-store.js';
export type { DeadLetter, DeadLetterKind, DeadLetterStatus } from './store/dead-letter-store.js';

// Operations: dead letters
export { DeadLetterService, type DeadLetterFilter, type DeadLetterPage, type RetriedDeadLetter } from './dead-letter/dead-letter.service.js';
