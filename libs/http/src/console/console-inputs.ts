import { describe, InvalidArgumentError, MAX_SEQUENCE } from '@nest-es/core/internal';
import { wholeNumber } from '../paging.js';

/** The longest checkpoint name taken: a subscriber name and a partition suffix. */
const MAX_CHECKPOINT_LENGTH = 300;

export function checkpointName(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_CHECKPOINT_LENGTH) {
    throw new InvalidArgumentError(`checkpoint must be a subscriber checkpoint's name (a non-empty string of at most ${MAX_CHECKPOINT_LENGTH} characters), got ${describe(value)}`);
  }
  return value;
}

/** A store position in a JSON body: positions start at 1. */
export function position(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new InvalidArgumentError(`position must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER}, got ${describe(value)}`);
  }
  return value;
}

/** The `after` query parameter of an events page: a sequence, 0 (the default) for the start. */
export function afterSequence(value: unknown): number {
  return value === undefined ? 0 : wholeNumber('after', value, 0, MAX_SEQUENCE);
}
