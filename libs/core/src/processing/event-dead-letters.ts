import { Logger } from '@nestjs/common';
import type { StoredEvent } from '../model/event-envelope.js';
import type { DeadLetterStore } from '../store/dead-letter-store.js';

/** Parks the events a subscriber failed on for good: the dead-letter table keeps them for review. */
export class EventDeadLetters {
  private readonly logger: Logger;

  constructor(
    private readonly subscriber: string,
    private readonly deadLetters: DeadLetterStore,
  ) {
    this.logger = new Logger(`Subscriber:${subscriber}`);
  }

  async add(event: StoredEvent, attempts: number, lastError: unknown): Promise<void> {
    const reason = lastError instanceof Error ? lastError.message : String(lastError);
    const letter = await this.deadLetters.add({
      kind: 'event',
      subscriber: this.subscriber,
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
