// A separate entry point from the library's index: this one loads @nestjs/cqrs, an optional peer dependency.
export * from './event-sourcing-cqrs.module.js';
export { storedEventOf } from './stored-event-of.js';
export { withOptions } from './with-options.js';
