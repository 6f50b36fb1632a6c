import { InvalidArgumentError } from '../errors/index.js';

/** A parallelism below 1 would queue every task forever (or divide by zero), so refuse it up front. */
export function assertParallelism(parallelism: number, owner: string): number {
  if (!Number.isInteger(parallelism) || parallelism < 1) {
    throw new InvalidArgumentError(`${owner}: parallelism must be a positive integer, got ${parallelism}`, {
      parallelism,
    });
  }
  return parallelism;
}
