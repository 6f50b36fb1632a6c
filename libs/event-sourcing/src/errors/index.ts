export * from './error-code.js';
export * from './event-sourcing.error.js';
