import { Logger } from '@nestjs/common';
import { UnavailableError } from '../errors/index.js';
import type { SubscriberDefinition } from '../discovery/subscriber-definition.js';
import type { StoredEvent } from '../model/event-envelope.js';
import type { DeadLetterStore } from '../store/dead-letter-store.js';
import { DEFAULT_RETRY_POLICY, RetriesExhaustedError, withRetries, type RetryPolicy } from './retry-policy.js';

/** Raised inside a projector transaction when another instance moved the checkpoint: roll back. */
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

/**
 * Bounded retries with backoff for one event of one subscriber; when they run out the event goes
 * to the dead-letter table and the subscription moves on: nothing blocks forever, nothing is
 * dropped silently.
 */
export class DeliveryGuard {
  private readonly logger: Logger;
  readonly policy: RetryPolicy;

  constructor(
    private readonly subscriber: SubscriberDefinition,
    private readonly deadLetters: DeadLetterStore,
  ) {
    this.logger = new Logger(`Subscriber:${subscriber.name}`);
    this.policy = { ...DEFAULT_RETRY_POLICY, maxAttempts: subscriber.options.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts };
  }

  /** True when delivered; false when the event was dead-lettered. */
  async deliver(event: StoredEvent, work: () => Promise<unknown>): Promise<boolean> {
    try {
      await withRetries(this.policy, work, isFinalDeliveryError);
      return true;
    } catch (error) {
      if (!(error instanceof RetriesExhaustedError)) throw error;
      await this.deadLetter(event, error.attempts, error.lastError);
      return false;
    }
  }

  /** Parks an event that failed `attempts` times for good: the dead-letter table keeps it for review. */
  async deadLetter(event: StoredEvent, attempts: number, lastError: unknown): Promise<void> {
    const reason = lastError instanceof Error ? lastError.message : String(lastError);
    const letter = await this.deadLetters.add({
      kind: 'event',
      subscriber: this.subscriber.name,
      aggregateType: event.aggregateType,
      aggregateId: event.aggregateId,
      messageType: event.type,
      payload: event.payload,
      context: { position: event.position, sequence: event.sequence, eventId: event.metadata.eventId, correlationId: event.metadata.correlationId },
      reason,
      attempts,
    });
    this.logger.error(`${event.type} at position ${event.position} failed ${attempts} times (${reason}); dead letter ${letter.id}`);
  }
}
