import { assertParallelism } from './assert-parallelism.js';

/**
 * Default number of dispatcher groups (serial lanes). Fixed rather than derived from the CPU
 * count so an aggregate id lands in the same group on every machine; groups are logical
 * lanes, not workers, so more of them only lowers the chance that two ids share a lane.
 */
export const DEFAULT_PARALLELISM = 64;

/** Java String.hashCode: 32-bit, over UTF-16 code units, identical on every runtime. */
export function stringHashCode(value: string): number {
  let hash = 0;
  for (let i = 0; i < value.length; i++) hash = (Math.imul(31, hash) + value.charCodeAt(i)) | 0;
  return hash;
}

/** The group of an aggregate id: its hash floor-mod `parallelism`, so always in [0, parallelism). */
export function groupKey(aggregateId: string, parallelism: number): number {
  assertParallelism(parallelism, 'groupKey');
  // The outer % also turns the -0 of a negative multiple into 0.
  return ((stringHashCode(aggregateId) % parallelism) + parallelism) % parallelism;
}
