export * from './event-envelope.js';
export * from './event-store.js';
export * from './snapshot-store.js';
export * from './store-errors.js';
export * from './dead-letter-store.js';
export * from './typeorm/index.js';
