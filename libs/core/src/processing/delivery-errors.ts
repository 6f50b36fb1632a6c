import { UnavailableError } from '../errors/index.js';

/** Raised inside a commit when another instance moved the checkpoint: roll back. */
export class CheckpointMovedError extends Error {
  constructor(subscriber: string) {
    super(`checkpoint of '${subscriber}' moved under us (another instance runs it)`);
    this.name = 'CheckpointMovedError';
  }
}

/** Errors retrying cannot help: we are stopping, or another instance took over the work. */
export function isFinalDeliveryError(error: unknown): boolean {
  return error instanceof UnavailableError || error instanceof CheckpointMovedError;
}
