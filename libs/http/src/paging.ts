import { describe } from '@nest-es/core/internal';
import { InvalidArgumentError } from '@nest-es/core';

/** Page size of the listings when the caller gives no `limit`. */
export const DEFAULT_PAGE_SIZE = 100;
/** The largest `limit` a listing takes: one answer stays a bounded amount of work and memory. */
export const MAX_PAGE_SIZE = 1000;

/** A query parameter holding a whole number in [min, max], given once. */
export function wholeNumber(name: string, value: unknown, min: number, max: number): number {
  const digits = String(max).length;
  if (typeof value === 'string' && new RegExp(`^\\d{1,${digits}}$`).test(value)) {
    const parsed = Number(value);
    if (parsed >= min && parsed <= max) return parsed;
  }
  throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}, given once; got ${describe(value)}`);
}
