export * from './event-sourcing.module.js';
export * from './event-sourcing-options.js';
export * from './tokens.js';
