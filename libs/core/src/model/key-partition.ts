/** One slice of a subscriber's events: those whose key hashes to `index` of `count`. */
export interface Partition {
  /** This slice, in [0, count). */
  index: number;
  /** How many slices the keys are split into (1: all in one). */
  count: number;
}

/**
 * Java String.hashCode: 32-bit, over UTF-16 code units, identical on every runtime. The event stores
 * keep it per event (the aggregate id's) so a partition can be read where the events are stored.
 */
export function stringHashCode(value: string): number {
  let hash = 0;
  for (let i = 0; i < value.length; i++) hash = (Math.imul(31, hash) + value.charCodeAt(i)) | 0;
  return hash;
}

/** The slice of `count` a 32-bit hash falls in: its floor-mod, so always in [0, count). */
export function sliceOfHash(hash: number, count: number): number {
  // The outer % also turns the -0 of a negative multiple into 0.
  return ((hash % count) + count) % count;
}

/** The slice of `count` a key falls in, by its stringHashCode. */
export function sliceOfKey(key: string, count: number): number {
  return sliceOfHash(stringHashCode(key), count);
}
