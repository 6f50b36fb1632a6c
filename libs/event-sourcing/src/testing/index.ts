export * from './aggregate-fixture.js';
