import { Logger } from '@nestjs/common';
import type { SubscriberDefinition } from '../discovery/subscriber-definition.js';
import type { StoredEvent } from '../model/event-envelope.js';
import type { CheckpointStore } from '../store/checkpoint-store.js';
import type { EventStore } from '../store/event-store.js';
import type { ProjectionTransactions } from '../store/projection-transactions.js';
import type { Tracing } from '../runtime/tracing.js';
import type { BatchHandler, HeldRetry } from './batch-handler.js';
import { CheckpointMovedError, isFinalDeliveryError, type DeliveryGuard } from './delivery-guard.js';
import { deliverySpan } from './delivery-span.js';
import { HeldAggregates, type HeldQueue } from './held-aggregates.js';

/**
 * A projector's batch runs in one transaction with its checkpoint, so its effects on a read model
 * in the same database happen exactly once, even across crashes and competing instances.
 *
 * An event that fails does not stop the projector: it is held (recorded in the same transaction
 * that moves the checkpoint past it) and retried with backoff between batches, and its aggregate's
 * later events are held behind it; other aggregates' events go on. Each held event is projected in
 * one transaction with its release, and when its attempts run out it goes to the dead-letter table.
 * So each aggregate's events are projected in order, and one failing aggregate delays the others by
 * one batch at most.
 */
export class ProjectorHandler implements BatchHandler {
  private readonly logger: Logger;
  private readonly held: HeldAggregates;

  constructor(
    private readonly subscriber: SubscriberDefinition,
    private readonly transactions: ProjectionTransactions,
    private readonly guard: DeliveryGuard,
    private readonly tracing: Tracing,
    private readonly checkpoints: CheckpointStore,
    private readonly store: EventStore,
    /** The checkpoint of the partition this handler runs for. */
    private readonly checkpoint: string = subscriber.name,
  ) {
    this.logger = new Logger(`Subscriber:${checkpoint}`);
    this.held = new HeldAggregates(guard.policy);
  }

  async handle(events: StoredEvent[], from: number, to: number): Promise<boolean> {
    const behind = events.filter((event) => this.held.isHeld(event));
    const free = events.filter((event) => !this.held.isHeld(event));
    try {
      await this.transactions.run(async (manager) => {
        // Projected first: a projection that throws leaves nothing held (the in-memory store cannot roll back).
        for (const event of free) await this.project(event, manager);
        for (const event of behind) await this.hold(event, manager);
        await this.advance(manager, from, to);
      });
      for (const event of behind) this.held.append(event);
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

  async restore(): Promise<void> {
    this.held.replace(await this.checkpoints.loadHeld(this.checkpoint));
  }

  async retryHeld(): Promise<HeldRetry> {
    let settled = 0;
    for (let due = this.held.due(Date.now()); due.length > 0; due = this.held.due(Date.now())) {
      for (const queue of due) {
        const outcome = await this.retryOldest(queue);
        if (outcome === 'moved') return { settled, nextDueAt: this.held.nextDueAt };
        if (outcome === 'settled') settled++;
      }
    }
    return { settled, nextDueAt: this.held.nextDueAt };
  }

  /** One event spoiled the batch: project one at a time, holding the ones that fail. */
  private async oneByOne(events: StoredEvent[], from: number, to: number): Promise<boolean> {
    let at = from;
    try {
      for (const event of events) {
        if (!this.held.isHeld(event)) {
          try {
            await this.transactions.run(async (manager) => {
              await this.project(event, manager);
              await this.advance(manager, at, event.position);
            });
            at = event.position;
            continue;
          } catch (error) {
            if (isFinalDeliveryError(error)) throw error;
            this.logger.warn(`${event.type} at position ${event.position} failed (${(error as Error)?.message ?? String(error)}); held, retried with backoff`);
            await this.holdAndAdvance(event, at);
            this.held.failedFirst(event, Date.now());
          }
        } else {
          await this.holdAndAdvance(event, at);
          this.held.append(event);
        }
        at = event.position;
      }
      await this.transactions.run((manager) => this.advance(manager, at, to));
      return true;
    } catch (error) {
      if (error instanceof CheckpointMovedError) return false;
      throw error;
    }
  }

  private holdAndAdvance(event: StoredEvent, from: number): Promise<void> {
    return this.transactions.run(async (manager) => {
      await this.hold(event, manager);
      await this.advance(manager, from, event.position);
    });
  }

  /**
   * Tries the oldest held event of an aggregate once: settled when projected, or dead-lettered because
   * its attempts are used up; moved when another instance released it (the held events are reloaded).
   */
  private async retryOldest(queue: HeldQueue): Promise<'settled' | 'failed' | 'moved'> {
    const position = queue.positions[0];
    const [event] = await this.store.readAll({ afterPosition: position - 1, limit: 1 });
    try {
      await this.transactions.run(async (manager) => {
        await this.project(event, manager);
        await this.release(manager, position);
      });
      this.held.shift(queue);
      return 'settled';
    } catch (error) {
      if (error instanceof CheckpointMovedError) return this.reloaded();
      if (isFinalDeliveryError(error)) throw error;
      if (!this.held.failed(queue, Date.now())) return 'failed';
      await this.guard.deadLetter(event, queue.failures, error);
    }
    try {
      await this.transactions.run((manager) => this.release(manager, position));
    } catch (error) {
      if (error instanceof CheckpointMovedError) return this.reloaded();
      throw error;
    }
    this.held.shift(queue);
    return 'settled';
  }

  private async reloaded(): Promise<'moved'> {
    await this.restore();
    return 'moved';
  }

  private async project(event: StoredEvent, manager: unknown): Promise<void> {
    await deliverySpan(this.tracing, this.subscriber, event, async () => this.subscriber.handlers.get(event.type)!(event.payload, event, manager));
  }

  private hold(event: StoredEvent, manager: unknown): Promise<void> {
    const { position, aggregateType, aggregateId } = event;
    return this.transactions.holdEvent(manager, { subscriber: this.checkpoint, position, aggregateType, aggregateId });
  }

  private async release(manager: unknown, position: number): Promise<void> {
    if (!(await this.transactions.releaseEvent(manager, this.checkpoint, position))) throw new CheckpointMovedError(this.checkpoint);
  }

  private async advance(manager: unknown, from: number, to: number): Promise<void> {
    if (from === to) return;
    if (!(await this.transactions.advanceCheckpoint(manager, this.checkpoint, from, to))) throw new CheckpointMovedError(this.checkpoint);
  }
}
