export * from './snapshot-policy.js';
export type * from './snapshot-policy-option.js';
export * from './snapshot-rebuilder.js';
export * from './snapshotter.js';
