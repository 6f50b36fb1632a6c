export * from './error-code.js';
export * from './event-sourcing.error.js';
export * from './missing-peer-dependency.error.js';
export * from './error-message.js';
