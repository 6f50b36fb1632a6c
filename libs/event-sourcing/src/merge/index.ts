export * from './merge-decision.js';
export * from './merge-resolver.js';
export * from './merge-strategy.js';
export * from './parked-command.js';
export * from './state-diff.js';
export * from './merge-interceptor.js';
export * from './merge-interceptors.js';
export * from './builtin-merge-interceptors.js';
