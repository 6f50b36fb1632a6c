export * from './snapshot-policy.js';
export type * from './snapshot-policy-option.js';
export * from './snapshotter.js';
