import { Inject, Injectable } from '@nestjs/common';
import type { CommandResult } from '../model/send-options.js';
import { SyncMode } from '../model/send-options.js';
import { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import type { SubscriberKind } from '../decorators/subscriber-types.js';
import { SyncTimeoutError } from '../errors/index.js';
import { EventNotifier } from '../runtime/event-notifier.js';
import type { StoredEvent } from '../model/event-envelope.js';
import { CHECKPOINT_STORE, type CheckpointStore } from '../store/checkpoint-store.js';
import { EVENT_STORE, type CapableEventStore } from '../store/event-store.js';
import { EVENT_SOURCING_OPTIONS, type EventSourcingModuleOptions } from '../config/event-sourcing-options.js';
import { checkpointName, partitionCount, partitionOf } from '../discovery/subscriber-partitions.js';

/** The backstop between checkpoint reads when no in-process wake-up comes (other instances). */
const POLL_MS = 25;

interface Pending {
  subscriber: string;
  position: number;
}

/**
 * Decides from the store, not from a bus (a bus message can be late, lost or go to another
 * instance; the store is what every instance sees), when a command's
 * consequences are visible: SIMPLE waits for the projectors of its events to checkpoint past
 * them; CASCADE follows the workflow through the store (every event of the command's correlation
 * from the command's first event on) until every subscriber of each has passed it and no new
 * event appeared. In-process wake-ups make it fast; polling makes it true across instances.
 * At shutdown `stop()` ends the waits still running with SYNC_TIMEOUT before the subscriptions
 * and the connection they read stop.
 */
@Injectable()
export class SyncWaiter {
  private readonly stopping = new AbortController();
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly registry: EventSourcingRegistry,
    private readonly notifier: EventNotifier,
    @Inject(EVENT_STORE) private readonly store: CapableEventStore,
    @Inject(CHECKPOINT_STORE) private readonly checkpoints: CheckpointStore,
    @Inject(EVENT_SOURCING_OPTIONS) private readonly options: EventSourcingModuleOptions,
  ) {}

  async wait(result: CommandResult, mode: SyncMode, timeoutMs: number, correlationId: string): Promise<void> {
    if (mode === SyncMode.ASYNC || result.events.length === 0) return;
    const waiting = this.waitFor(result, mode, timeoutMs, correlationId);
    this.running.add(waiting);
    try {
      await waiting;
    } finally {
      this.running.delete(waiting);
    }
  }

  /** Ends the waits in flight (each after at most one more read of the store) and every later one with SYNC_TIMEOUT. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled([...this.running]);
  }

  private async waitFor(result: CommandResult, mode: SyncMode, timeoutMs: number, correlationId: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    // Without sagas or process managers nothing cascades: CASCADE waits as SIMPLE does.
    if (mode === SyncMode.SIMPLE || !this.registry.hasWorkflows) {
      await this.until(deadline, result, () => this.pending(result.events, ['projector']));
      return;
    }
    const first = result.events[0].position;
    let known = -1;
    for (;;) {
      const events = await this.store.readByCorrelation(correlationId, { afterPosition: first - 1 });
      const cascade = events.length > 0 ? events : result.events;
      await this.until(deadline, result, () => this.pending(cascade, ['projector', 'saga', 'process-manager']));
      // Sagas checkpoint only after what they emitted is stored: no new event now means the cascade is done.
      if (cascade.length === known) return;
      known = cascade.length;
    }
  }

  private async pending(events: readonly StoredEvent[], kinds: SubscriberKind[]): Promise<Pending[]> {
    const needed = new Map<string, number[]>();
    const count = partitionCount(this.options.processing);
    for (const event of events) {
      for (const subscriber of this.registry.subscribersOf(event.type)) {
        if (!kinds.includes(subscriber.kind)) continue;
        // Only the partition the event belongs to handles it (and checkpoints past it).
        const name = checkpointName(subscriber.name, { index: partitionOf(subscriber, event, count), count });
        needed.set(name, [...(needed.get(name) ?? []), event.position]);
      }
    }
    if (needed.size === 0) return [];
    const [checkpoints, held] = await Promise.all([this.checkpoints.loadAll(), this.checkpoints.loadHeld()]);
    // A projector's checkpoint moves past an event it holds (failed, retried): not handled until released.
    const holding = new Set(held.map((event) => `${event.subscriber}@${event.position}`));
    return [...needed].flatMap(([subscriber, positions]) => {
      const position = Math.max(...positions);
      if ((checkpoints.get(subscriber) ?? 0) < position) return [{ subscriber, position }];
      const waiting = positions.filter((at) => holding.has(`${subscriber}@${at}`));
      return waiting.length > 0 ? [{ subscriber, position: Math.max(...waiting) }] : [];
    });
  }

  private async until(deadline: number, result: CommandResult, check: () => Promise<Pending[]>): Promise<void> {
    for (;;) {
      const seen = this.notifier.checkpointCount;
      const pending = await check();
      if (pending.length === 0) return;
      if (this.stopping.signal.aborted) throw late(result, pending, 'before the service shut down');
      const left = deadline - Date.now();
      if (left <= 0) throw late(result, pending, 'within the sync timeout');
      await this.notifier.nextCheckpoint(Math.min(POLL_MS, left), this.stopping.signal, seen);
    }
  }
}

/** The command is stored; what is late is its consequences, and the caller learns which. */
function late(result: CommandResult, pending: Pending[], when: string): SyncTimeoutError {
  return new SyncTimeoutError(
    `${result.aggregateType}/${result.aggregateId} is stored at sequence ${result.sequence}, but ${pending
      .map((p) => `${p.subscriber} has not reached position ${p.position}`)
      .join(', ')} ${when}`,
    { aggregateType: result.aggregateType, aggregateId: result.aggregateId, sequence: result.sequence, pending },
  );
}
