// @nest-es/core/testing: helpers for tests of applications (and of the library's own suites).
export { AggregateFixture, expectRefusal, type FixtureOutcome } from './aggregate-fixture.js';
export { aggregateMetadataOf } from '../discovery/aggregate-definition-builder.js';
export { COMMAND_HANDLERS_METADATA, APPLIERS_METADATA } from '../decorators/constants.js';
export { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
export { EventSourcingLifecycle } from '../module/event-sourcing-lifecycle.js';
export { AdmissionGate } from '../runtime/admission-gate.js';
export { EventNotifier } from '../runtime/event-notifier.js';
export { AggregateLoader } from '../command/aggregate-loader.js';
export { CommandDeadLetterRetrier } from '../dead-letter/command-retrier.js';
export { deterministicId } from '../processing/deterministic-id.js';
export { replay } from '../command/aggregate-replayer.js';
export { eventTypeName } from '../decorators/event-type.decorator.js';
export { deferred, type Deferred } from '../scheduling/deferred.js';
export { createDataSource } from '../store/typeorm/store-options.js';
export { openDataSource } from '../store/typeorm/open-data-source.js';
export { EventProcessor } from '../processing/event-processor.js';
export { exposedForTests } from './expose-for-tests.js';
