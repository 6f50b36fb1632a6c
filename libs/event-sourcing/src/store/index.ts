export * from './event-envelope.js';
export * from './event-store.js';
export * from './snapshot-store.js';
export * from './store-errors.js';
export * from './dead-letter-store.js';
export * from './typeorm/index.js';
export * from './checkpoint-store.js';
export * from './timer-store.js';
