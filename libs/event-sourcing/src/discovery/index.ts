export * from './aggregate-definition.js';
export * from './aggregate-definition-builder.js';
export * from './aggregate-explorer.js';
export * from './boot-validation.error.js';
export * from './event-sourcing-registry.js';
export * from './subscriber-definition.js';
export * from './subscriber-explorer.js';
