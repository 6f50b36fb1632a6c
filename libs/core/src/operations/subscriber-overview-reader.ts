import { Inject, Injectable } from '@nestjs/common';
import { EVENT_SOURCING_OPTIONS, type EventSourcingModuleOptions } from '../config/event-sourcing-options.js';
import { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import type { HeldKeyStatus } from '../processing/held-event-status.js';
import { EventProcessor } from '../processing/event-processor.js';
import { CHECKPOINT_STORE, type CheckpointStore, type HeldEvent } from '../store/checkpoint-store.js';
import { loadCheckpointsAndHeld } from '../store/checkpoints-and-held.js';
import { EVENT_STORE, type CapableEventStore } from '../store/event-store.js';
import { PARTITION_LEASES, type Membership, type PartitionLeases } from '../store/partition-leases.js';
import { checkpointOwner } from './checkpoint-owner.js';
import { oldestUnhandled } from './oldest-unhandled.js';
import { subscriberCheckpoints, type SubscriberCheckpoint } from '../discovery/subscriber-checkpoints.js';
import type { CheckpointOverview, HeldEventOverview, SubscriberOverview, SubscribersOverview } from './subscriber-overview.js';

/**
 * Reads where every projector, saga and process manager is: its checkpoint(s), who runs each, how
 * far behind the head it is, and its held events, with their attempts and last error where this
 * process runs the checkpoint (nobody else knows them: the store keeps only the positions).
 */
@Injectable()
export class SubscriberOverviewReader {
  constructor(
    private readonly registry: EventSourcingRegistry,
    private readonly processor: EventProcessor,
    @Inject(EVENT_STORE) private readonly store: CapableEventStore,
    @Inject(CHECKPOINT_STORE) private readonly checkpoints: CheckpointStore,
    @Inject(PARTITION_LEASES) private readonly leases: PartitionLeases,
    @Inject(EVENT_SOURCING_OPTIONS) private readonly options: EventSourcingModuleOptions,
  ) {}

  async read(): Promise<SubscribersOverview> {
    const now = Date.now();
    const [headPosition, { positions, held }, membership] = await Promise.all([this.store.headPosition(), loadCheckpointsAndHeld(this.checkpoints), this.membership()]);
    const subscribers = new Map<string, SubscriberOverview>();
    for (const unit of subscriberCheckpoints(this.registry, this.options.processing)) {
      const { name, kind } = unit.subscriber;
      if (!subscribers.has(name)) subscribers.set(name, { name, kind, checkpoints: [] });
      const ownHeld = held.filter((event) => event.subscriber === unit.checkpoint);
      subscribers.get(name)!.checkpoints.push(await this.checkpoint(unit, positions.get(unit.checkpoint) ?? 0, ownHeld, { headPosition, membership, now }));
    }
    return { at: new Date(now).toISOString(), headPosition, instances: membership, scaleOut: this.processor.sharedAmongInstances, subscribers: [...subscribers.values()] };
  }

  private async checkpoint(unit: SubscriberCheckpoint, position: number, held: HeldEvent[], at: { headPosition: number; membership: Membership | null; now: number }): Promise<CheckpointOverview> {
    const oldest = await oldestUnhandled(this.store, unit.subscriber, unit.partition, position, held);
    const status = this.processor.heldStatus(unit.checkpoint)?.heldKeys();
    return {
      checkpoint: unit.checkpoint,
      partition: unit.partition,
      position,
      positionsBehind: Math.max(0, at.headPosition - position),
      ...(oldest ? { oldestUnhandled: { position: oldest.position, storedAt: oldest.occurredAt.toISOString(), lagMs: Math.max(0, at.now - oldest.occurredAt.getTime()) } } : {}),
      owner: checkpointOwner(this.processor, unit.checkpoint, at.membership),
      held: held.map((event) => heldOverview(event, status)),
    };
  }

  /**
   * The live instances under scale-out; null without it (the instances then join no membership) or
   * when the leases cannot say (a lost connection must not fail the report).
   */
  private async membership(): Promise<Membership | null> {
    if (!this.processor.sharedAmongInstances) return null;
    try {
      return await this.leases.members();
    } catch {
      return null;
    }
  }
}

function heldOverview({ position, aggregateType, aggregateId }: HeldEvent, status: HeldKeyStatus[] | undefined): HeldEventOverview {
  const row: HeldEventOverview = { position, aggregateType, aggregateId };
  const queue = status?.find((key) => key.positions.includes(position));
  if (!queue) return row;
  if (queue.positions[0] !== position) return { ...row, attempts: 0, behind: queue.positions[0] };
  return {
    ...row,
    attempts: queue.attempts,
    ...(queue.lastError !== undefined ? { lastError: queue.lastError } : {}),
    nextAttemptAt: new Date(queue.nextAttemptAt).toISOString(),
  };
}
