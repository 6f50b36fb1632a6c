export * from './admission-gate.js';
export * from './deadline.js';
export * from './event-sourcing-lifecycle.js';
export * from './event-notifier.js';
export * from './metrics.service.js';
export * from './cross-instance-wakeups.js';
