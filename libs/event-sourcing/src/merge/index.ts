export * from './merge-decision.js';
export * from './merge-resolver.js';
export * from './merge-strategy.js';
export * from './state-diff.js';
