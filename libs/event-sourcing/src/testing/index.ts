export * from './aggregate-fixture.js';
export { deferred, type Deferred } from '../scheduling/deferred.js';
export { createDataSource } from '../store/typeorm/index.js';
