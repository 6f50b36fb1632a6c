export * from './aggregate.decorator.js';
export * from './aggregate-id.decorator.js';
export * from './apply.decorator.js';
export * from './command-handler.decorator.js';
export * from './merge-handler.decorator.js';
export * from './constants.js';
export type * from './decorator-types.js';
export * from './subscriber.decorators.js';
export type * from './subscriber-types.js';
