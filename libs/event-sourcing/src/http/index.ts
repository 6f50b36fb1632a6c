export * from './aggregate.controller.js';
export * from './command-headers.js';
export * from './command.controller.js';
export * from './dead-letter.controller.js';
export * from './error-body.js';
export * from './event-sourcing-exception.filter.js';
export * from './health.controller.js';
export * from './wire-event.js';
