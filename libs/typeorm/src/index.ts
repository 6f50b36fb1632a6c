// The public API of @nest-es/typeorm: the TypeORM adapter of @nest-es/core (PostgreSQL and SQLite).

// The adapter and its options
export { typeorm } from './typeorm-adapter.js';
export type { ReadModelOptions, StoreOptions, TypeOrmAdapterOptions } from './adapter-options.js';
export { parseDatabaseUrl, createDataSource } from './store-options.js';
export { openDataSource } from './open-data-source.js';
export { readModelStore } from './read-model-store.js';

// What the application injects and writes its read models with
export { EVENT_SOURCING_DATA_SOURCE, READ_MODEL_DATA_SOURCE } from './tokens.js';
export { portableQuery, type Queryable } from './portable-query.js';

// The schema, for an application's own DataSource and migrations
export { eventSourcingEntitySchemas } from './schema/entity-schemas.js';
export { eventSourcingMigrations } from './schema/event-sourcing-migrations.js';
export { ensureSchema } from './schema/migrate.js';

// The stores one by one (to wrap, or to test against)
export { TypeOrmEventStore } from './typeorm-event-store.js';
export { TypeOrmSnapshotStore } from './typeorm-snapshot-store.js';
export { TypeOrmCheckpointStore } from './typeorm-checkpoint-store.js';
export { TypeOrmDeadLetterStore } from './typeorm-dead-letter-store.js';
export { TypeOrmTimerStore } from './typeorm-timer-store.js';
