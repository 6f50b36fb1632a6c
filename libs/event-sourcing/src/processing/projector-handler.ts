import type { SubscriberDefinition } from '../discovery/subscriber-definition.js';
import type { StoredEvent } from '../model/event-envelope.js';
import type { ProjectionTransactions } from '../store/projection-transactions.js';
import type { Tracing } from '../runtime/tracing.js';
import type { BatchHandler } from './batch-handler.js';
import { CheckpointMovedError, isFinalDeliveryError, type DeliveryGuard } from './delivery-guard.js';
import { deliverySpan } from './delivery-span.js';

/**
 * A projector's batch runs in one transaction with its checkpoint, so its effects on a read model
 * in the same database happen exactly once, even across crashes and competing instances. Events
 * are projected in position order (which keeps each aggregate's order).
 */
export class ProjectorHandler implements BatchHandler {
  constructor(
    private readonly subscriber: SubscriberDefinition,
    private readonly transactions: ProjectionTransactions,
    private readonly guard: DeliveryGuard,
    private readonly tracing: Tracing,
    /** The checkpoint of the partition this handler runs for. */
    private readonly checkpoint: string = subscriber.name,
  ) {}

  async handle(events: StoredEvent[], from: number, to: number): Promise<boolean> {
    try {
      await this.transactions.run(async (manager) => {
        for (const event of events) await this.project(event, manager);
        await this.advance(manager, from, to);
      });
      return true;
    } catch (error) {
      if (error instanceof CheckpointMovedError) return false;
      if (isFinalDeliveryError(error)) throw error;
      return this.oneByOne(events, from, to);
    }
  }

  redeliver(event: StoredEvent): Promise<void> {
    return this.transactions.run((manager) => this.project(event, manager));
  }

  /** One event spoiled the batch: project one at a time so only the poison one is dead-lettered. */
  private async oneByOne(events: StoredEvent[], from: number, to: number): Promise<boolean> {
    let at = from;
    try {
      for (const event of events) {
        const delivered = await this.guard.deliver(event, () =>
          this.transactions.run(async (manager) => {
            await this.project(event, manager);
            await this.advance(manager, at, event.position);
          }),
        );
        if (!delivered) await this.transactions.run((manager) => this.advance(manager, at, event.position));
        at = event.position;
      }
      await this.transactions.run((manager) => this.advance(manager, at, to));
      return true;
    } catch (error) {
      if (error instanceof CheckpointMovedError) return false;
      throw error;
    }
  }

  private async project(event: StoredEvent, manager: unknown): Promise<void> {
    await deliverySpan(this.tracing, this.subscriber, event, async () => this.subscriber.handlers.get(event.type)!(event.payload, event, manager));
  }

  private async advance(manager: unknown, from: number, to: number): Promise<void> {
    if (from === to) return;
    if (!(await this.transactions.advanceCheckpoint(manager, this.checkpoint, from, to))) throw new CheckpointMovedError(this.checkpoint);
  }
}
