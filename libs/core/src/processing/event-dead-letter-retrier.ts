import { Inject, Injectable } from '@nestjs/common';
import { DeadLetterService } from '../dead-letter/dead-letter.service.js';
import { EventSourcingError, FailedPreconditionError } from '../errors/index.js';
import type { DeadLetter } from '../store/dead-letter-store.js';
import { isStoreUnavailableError } from '../store/store-errors.js';
import { EVENT_STORE, type EventStore } from '../store/event-store.js';
import { EventProcessor } from './event-processor.js';
import { errorMessage } from '../errors/error-message.js';

/** Retries dead letters of kind 'event': the stored event, once more, to the subscriber that failed on it. */
@Injectable()
export class EventDeadLetterRetrier {
  constructor(
    deadLetters: DeadLetterService,
    private readonly processor: EventProcessor,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {
    deadLetters.registerRetrier('event', (letter) => this.retry(letter));
  }

  private async retry(letter: DeadLetter): Promise<{ position: number }> {
    const subscriber = letter.subscriber ?? '';
    const handler = this.processor.handler(subscriber);
    if (!handler) throw new FailedPreconditionError(`subscriber '${subscriber}' does not run in this process; retry where it runs`);
    const position = Number(letter.context.position);
    const [event] = await this.store.readAll({ afterPosition: position - 1, limit: 1 });
    if (!event || event.position !== position || event.metadata.eventId !== letter.context.eventId) {
      throw new FailedPreconditionError(`the event of dead letter ${letter.id} is no longer at position ${position}`);
    }
    try {
      await handler.redeliver(event);
    } catch (error) {
      if (error instanceof EventSourcingError || isStoreUnavailableError(error)) throw error;
      // The subscriber's own failure, again: the letter stays pending and the reviewer learns why.
      throw new FailedPreconditionError(`subscriber '${subscriber}' failed on the event of dead letter ${letter.id} again: ${errorMessage(error)}`);
    }
    return { position };
  }
}
