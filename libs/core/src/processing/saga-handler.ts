import { Logger } from '@nestjs/common';
import type { SubscriberDefinition } from '../discovery/subscriber-definition.js';
import type { AggregateDispatcher } from '../scheduling/index.js';
import type { StoredEvent } from '../model/event-envelope.js';
import type { CheckpointStore } from '../store/checkpoint-store.js';
import type { Tracing } from '../runtime/tracing.js';
import type { BatchHandler } from './batch-handler.js';
import type { DeliveryGuard } from './delivery-guard.js';
import { deliverySpan } from './delivery-span.js';
import { toEmissions, type Emission } from './emissions.js';
import { MAX_COMPENSATION_DEPTH, type EmissionCause, type EmissionSender } from './emission-sender.js';

/**
 * Sagas: events of one aggregate in order, different aggregates in parallel lanes; what they
 * emit is sent with ids derived from the event, so a redelivery after a crash sends nothing twice.
 */
export class SagaHandler implements BatchHandler {
  private readonly logger: Logger;

  constructor(
    private readonly subscriber: SubscriberDefinition,
    private readonly lanes: AggregateDispatcher,
    private readonly checkpoints: CheckpointStore,
    private readonly sender: EmissionSender,
    private readonly guard: DeliveryGuard,
    private readonly tracing: Tracing,
    /** The checkpoint of the partition this handler runs for. */
    private readonly checkpoint: string = subscriber.name,
  ) {
    this.logger = new Logger(`Saga:${subscriber.name}`);
  }

  async handle(events: StoredEvent[], _from: number, to: number): Promise<boolean> {
    await Promise.all(
      events.map((event) => this.lanes.dispatch(event.aggregateType, event.aggregateId, () => this.guard.deliver(event, () => this.redeliver(event)))),
    );
    await this.checkpoints.save(this.checkpoint, to);
    return true;
  }

  redeliver(event: StoredEvent): Promise<void> {
    return deliverySpan(this.tracing, this.subscriber, event, async () => {
      const emitted = toEmissions((await this.subscriber.handlers.get(event.type)!(event.payload, event)) as never);
      await this.sendAndCompensate(emitted, {
        idBase: [this.subscriber.name, event.metadata.eventId],
        correlationId: event.metadata.correlationId,
        causationId: event.metadata.eventId,
        event,
      });
    });
  }

  private async sendAndCompensate(emissions: Emission[], cause: EmissionCause, depth = 0): Promise<void> {
    for (const rejection of await this.sender.send(emissions, cause)) {
      if (!this.subscriber.onRejected || depth >= MAX_COMPENSATION_DEPTH) {
        this.logger.warn(`${rejection.commandType} was refused (${rejection.code}: ${rejection.message}) and nothing compensates it`);
        continue;
      }
      const compensation = toEmissions((await this.subscriber.onRejected(rejection)) as never);
      await this.sendAndCompensate(compensation, { ...cause, idBase: [...cause.idBase, 'rejected', rejection.commandId] }, depth + 1);
    }
  }
}
