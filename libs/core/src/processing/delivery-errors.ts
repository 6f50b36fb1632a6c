import { UnavailableError } from '../errors/index.js';
import { isStoreUnavailableError } from '../store/store-errors.js';

/** Raised inside a commit when another instance moved the checkpoint: roll back. */
export class CheckpointMovedError extends Error {
  constructor(subscriber: string) {
    super(`checkpoint of '${subscriber}' moved under us (another instance runs it)`);
    this.name = 'CheckpointMovedError';
  }
}

/**
 * Errors that say nothing about the event, so it is not held for them: we are stopping, another
 * instance took over the work, or the store is out of reach (locked, down). The subscription tries
 * the whole batch again later instead.
 */
export function isFinalDeliveryError(error: unknown): boolean {
  return error instanceof UnavailableError || error instanceof CheckpointMovedError || isStoreUnavailableError(error);
}
