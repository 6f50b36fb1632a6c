import type { SubscriberDefinition } from '../discovery/subscriber-definition.js';
import type { StoredEvent } from '../model/event-envelope.js';
import type { Tracing } from '../runtime/tracing.js';
import type { HeldEvent } from '../store/checkpoint-store.js';
import { deliverySpan } from './delivery-span.js';
import { aggregateKey, type Reactor } from './reactor.js';
import { eventContext, type ProjectionContext } from './subscriber-context.js';

/** A projector writes its read model through the commit's transaction: exactly once with its checkpoint. */
export class ProjectorReactor implements Reactor {
  readonly inTransaction = true;

  constructor(
    private readonly subscriber: SubscriberDefinition,
    private readonly tracing: Tracing,
  ) {}

  keyOf(event: StoredEvent): string {
    return aggregateKey(event);
  }

  keyOfHeld(held: HeldEvent): string {
    return aggregateKey(held);
  }

  react(event: StoredEvent, tx: unknown): Promise<void> {
    const ctx: ProjectionContext = { ...eventContext(event), tx };
    return deliverySpan(this.tracing, this.subscriber, event, async () => {
      await this.subscriber.handlers.get(event.type)!(event.payload, ctx);
    });
  }
}
