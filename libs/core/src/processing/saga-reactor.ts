import { Logger } from '@nestjs/common';
import type { SubscriberDefinition } from '../discovery/subscriber-definition.js';
import type { StoredEvent } from '../model/event-envelope.js';
import type { Tracing } from '../runtime/tracing.js';
import type { HeldEvent } from '../store/checkpoint-store.js';
import { deliverySpan } from './delivery-span.js';
import { toEmissions, type Emission } from './emissions.js';
import { MAX_COMPENSATION_DEPTH, type EmissionCause, type EmissionSender } from './emission-sender.js';
import { aggregateKey, type Reactor } from './reactor.js';
import { eventContext, type SagaContext } from './subscriber-context.js';

/**
 * A saga sends what it emits before the commit, with ids derived from the event, so a delivery
 * repeated after a crash sends nothing twice; a refused command goes to its `@OnRejected` method.
 */
export class SagaReactor implements Reactor {
  readonly inTransaction = false;
  private readonly logger: Logger;

  constructor(
    private readonly subscriber: SubscriberDefinition,
    private readonly sender: EmissionSender,
    private readonly tracing: Tracing,
  ) {
    this.logger = new Logger(`Saga:${subscriber.name}`);
  }

  keyOf(event: StoredEvent): string {
    return aggregateKey(event);
  }

  keyOfHeld(held: HeldEvent): string {
    return aggregateKey(held);
  }

  react(event: StoredEvent): Promise<void> {
    return deliverySpan(this.tracing, this.subscriber, event, async () => {
      const ctx = eventContext(event);
      const emitted = toEmissions((await this.subscriber.handlers.get(event.type)!(event.payload, ctx)) as never);
      await this.sendAndCompensate(emitted, ctx, {
        idBase: [this.subscriber.name, event.metadata.eventId],
        correlationId: event.metadata.correlationId,
        causationId: event.metadata.eventId,
        event,
      });
    });
  }

  private async sendAndCompensate(emissions: Emission[], ctx: SagaContext, cause: EmissionCause, depth = 0): Promise<void> {
    for (const rejection of await this.sender.send(emissions, cause)) {
      if (!this.subscriber.onRejected || depth >= MAX_COMPENSATION_DEPTH) {
        this.logger.warn(`${rejection.commandType} was refused (${rejection.code}: ${rejection.message}) and nothing compensates it`);
        continue;
      }
      const compensation = toEmissions((await this.subscriber.onRejected(rejection, ctx)) as never);
      await this.sendAndCompensate(compensation, ctx, { ...cause, idBase: [...cause.idBase, 'rejected', rejection.commandId] }, depth + 1);
    }
  }
}
