// The @nestjs/cqrs bridge is a separate entry (cqrs/index.ts, `@nest-es/core/cqrs`): @nestjs/cqrs is an optional peer dependency.
export * from './command/index.js';
export * from './dead-letter/index.js';
export * from './decorators/index.js';
export * from './discovery/index.js';
export * from './errors/index.js';
export * from './http/index.js';
export * from './merge/index.js';
export * from './module/index.js';
export * from './processing/index.js';
export * from './runtime/index.js';
export * from './scheduling/index.js';
export * from './snapshot/index.js';
export * from './store/index.js';
