export * from './schema/migrate.js';
export type { Migration } from './schema/migration.js';
export * from './open-data-source.js';
export * from './store-options.js';
export * from './typeorm-event-store.js';
export * from './typeorm-snapshot-store.js';
export * from './typeorm-dead-letter-store.js';
export * from './typeorm-checkpoint-store.js';
export * from './typeorm-timer-store.js';
