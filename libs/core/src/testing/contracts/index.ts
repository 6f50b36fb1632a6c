export type * from './contract-subject.js';
export * from './event-store.contract.js';
export * from './snapshot-store.contract.js';
export * from './timer-store.contract.js';
export * from './dead-letter-store.contract.js';
export * from './checkpoint-store.contract.js';
export * from './checkpoint-commit.contract.js';
export * from './partition-leases.contract.js';
export * from './wake-channel.contract.js';
