import type * as JestGlobals from '@jest/globals';

/**
 * The test functions jest puts on the global scope, read when a contract suite is declared.
 * Importing `@jest/globals` itself throws outside jest, and `@nest-es/core/testing` is also
 * imported by programs (a benchmark, a child process of a test) that declare no suite.
 */
export function jestGlobals(): Pick<typeof JestGlobals, 'afterAll' | 'beforeAll' | 'describe' | 'expect' | 'it'> {
  const scope = globalThis as unknown as Partial<typeof JestGlobals>;
  if (typeof scope.describe !== 'function' || typeof scope.expect !== 'function') {
    throw new Error('the store contract suites are declared inside a jest test file (describe and expect are not defined here)');
  }
  return scope as typeof JestGlobals;
}
