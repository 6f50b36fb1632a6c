// @nest-es/core/testing: what an application's tests need: given/when/then fixtures for aggregates,
// sagas, process managers and projectors, and the contract suites that check an adapter.
export { AggregateFixture, expectRefusal, type FixtureOutcome } from './aggregate-fixture.js';
export { SagaFixture } from './saga-fixture.js';
export { ProcessManagerFixture, type ProcessOutcome } from './process-manager-fixture.js';
export { ProjectorFixture, type ProjectorFixtureOptions } from './projector-fixture.js';
export type { EmittedOutcome } from './emitted-outcome.js';
export { storedEvent } from './stored-event-of.js';
export { exposedForTests } from './expose-for-tests.js';
export * from './contracts/index.js';
export { drain } from './drain.js';
