export * from './command-retrier.js';
export * from './dead-letter.service.js';
