import { Logger } from '@nestjs/common';
import type { SubscriberDefinition } from '../discovery/subscriber-definition.js';
import type { EventNotifier } from '../runtime/event-notifier.js';
import type { CheckpointStore } from '../store/checkpoint-store.js';
import type { EventPage, PartitionReads } from '../store/event-store.js';
import type { StoredEvent } from '../model/event-envelope.js';
import type { BatchHandler } from './batch-handler.js';
import { AppendsHeard, type HeardRun } from './appends-heard.js';
import { BackgroundLoop } from './background-loop.js';
import { isFinalDeliveryError } from './delivery-errors.js';
import { WorkflowActivity } from './workflow-activity.js';
import { checkpointName, partitionOf, WHOLE, type Partition } from '../discovery/subscriber-partitions.js';

export interface SubscriptionSettings {
  /** The backstop when no in-process append wakes the subscription (appends of other instances). */
  pollIntervalMs: number;
  /** How often a checkpoint that moved only over events the subscriber ignores is saved. */
  idleCheckpointIntervalMs: number;
}

export const DEFAULT_SUBSCRIPTION_SETTINGS: SubscriptionSettings = { pollIntervalMs: 250, idleCheckpointIntervalMs: 5_000 };

const DEFAULT_BATCH_SIZE = 500;
const MAX_ERROR_BACKOFF_MS = 5_000;

/**
 * One subscriber's read of the store, in position order from its checkpoint: at-least-once
 * delivery that survives a crash anywhere (the checkpoint moves only after the handler is done).
 */
export class SubscriptionRunner {
  private readonly logger: Logger;
  /** Where the subscriber has read up to (may be ahead of the stored checkpoint over ignored events). */
  private position = 0;
  /** The checkpoint as stored. */
  private stored = 0;
  private lastIdleSave = 0;
  private failures = 0;
  private readonly loop = new BackgroundLoop();
  /** The checkpoint (and lease) name of this partition of the subscriber. */
  readonly name: string;
  /** The next batch, read while the current one is handled when the subscriber is behind. */
  private readAhead?: { after: number; page: Promise<EventPage> };
  /**
   * The partition the store filters on: a process manager's events are partitioned by instance key,
   * which the store keeps no hash of, so it reads them all and `step` keeps its own.
   */
  private readonly readFilter: Partition;
  /** The event types the subscriber handles: the store reads no others. */
  private readonly handledTypes: readonly string[];
  /** Lets a caught-up subscription take this process's appends without a read. */
  private readonly heard: AppendsHeard;
  /** A run of this process's appends the idle wait found, for the next step to take. */
  private local?: HeardRun;

  constructor(
    readonly subscriber: SubscriberDefinition,
    private readonly handler: BatchHandler,
    private readonly store: PartitionReads,
    private readonly checkpoints: CheckpointStore,
    private readonly notifier: EventNotifier,
    private readonly settings: SubscriptionSettings,
    private readonly partition: Partition = WHOLE,
    /** This process's workflow batches: a saga's or process manager's are counted, a projector waits on them (when projectors wait). */
    private readonly workflows = new WorkflowActivity(false),
  ) {
    this.name = checkpointName(subscriber.name, partition);
    this.readFilter = subscriber.kind === 'process-manager' ? WHOLE : partition;
    this.handledTypes = [...subscriber.handlers.keys()];
    this.heard = new AppendsHeard(notifier, (event) => this.handles(event));
    this.logger = new Logger(`Subscription:${this.name}`);
  }

  get currentPosition(): number {
    return this.position;
  }

  /** Starts reading from the stored checkpoint; also after a stop (a projection rebuild restarts it). */
  async start(): Promise<void> {
    this.stored = this.position = await this.startingPosition();
    await this.handler.restore?.();
    this.failures = 0;
    this.readAhead = undefined;
    this.local = undefined;
    this.heard.listen();
    this.loop.start(
      () => this.iterate(),
      () => this.saveIdlePosition(true).catch((error) => this.logger.warn(`last checkpoint not saved: ${(error as Error).message}`)),
    );
  }

  /**
   * The partition's checkpoint. A partition that has none yet (scale-out just turned on, or the number
   * of partitions changed and the projection was rebuilt) starts where the subscriber's own checkpoint
   * is, as every event up to it was handled; starting from 0 would handle them all again.
   */
  private async startingPosition(): Promise<number> {
    const own = await this.checkpoints.load(this.name);
    if (own > 0 || this.partition.count === 1) return own;
    const whole = await this.checkpoints.load(this.subscriber.name);
    if (whole === 0) return own;
    // Lost the compare-and-set: another instance seeded or moved it meanwhile.
    return (await this.checkpoints.moveCheckpoint(this.name, 0, whole)) ? whole : this.checkpoints.load(this.name);
  }

  /** Finishes the batch in hand, saves where it got to, and stops. */
  async stop(): Promise<void> {
    await this.loop.stop();
    this.heard.close();
  }

  private async iterate(): Promise<void> {
    try {
      const seen = this.notifier.appendCount;
      const idle = await this.step();
      const held = await this.handler.retryHeld?.();
      if (held?.settled) this.checkpointed();
      this.failures = 0;
      if (idle) await this.idle(this.idleWait(held?.nextDueAt), seen);
    } catch (error) {
      if (this.loop.stopped && isFinalDeliveryError(error)) return;
      this.failures++;
      const backoff = Math.min(100 * 2 ** this.failures, MAX_ERROR_BACKOFF_MS);
      this.logger.error(`batch failed (${(error as Error).message}); retrying in ${backoff} ms`);
      await this.loop.sleep(backoff);
    }
  }

  /** Reads (or takes from this process's appends) and handles one batch; true when it got to the head (nothing more to read now). */
  private async step(): Promise<boolean> {
    const limit = this.batchSize;
    const taken = this.taken(limit);
    const { events, scannedTo: to } = taken ?? (await this.read(limit));
    if (events.length === 0) {
      // Caught up; the read may still have moved over other partitions' events.
      this.heard.caughtUp(true);
      this.position = to;
      await this.saveIdlePosition(false);
      return true;
    }
    // A full batch means the subscriber is behind (catching up): the store reads the next batch while
    // this one is handled, so reading and handling overlap instead of taking turns.
    if (!taken && events.length === limit) this.readAhead = { after: to, page: this.readPage(to, limit) };
    const relevant = events.filter((event) => this.handles(event));
    // A page short of the limit read up to the head: what came after it wakes the subscription. After
    // a run taken from this process's appends, the idle wait looks for the next one first.
    const caughtUp = taken !== undefined || events.length < limit;
    this.heard.caughtUp(caughtUp);
    if (relevant.length === 0) {
      this.position = to;
      return caughtUp;
    }
    if (await this.handleBatch(relevant, to)) {
      this.stored = this.position = to;
      this.checkpointed();
      return caughtUp;
    }
    // Another instance moved the checkpoint: continue from where it got to (held events after it).
    this.local = undefined;
    this.stored = this.position = await this.checkpoints.load(this.name);
    await this.handler.restore?.();
    return false;
  }

  private handleBatch(events: StoredEvent[], to: number): Promise<boolean> {
    const handle = () => this.handler.handle(events, this.stored, to);
    return this.subscriber.kind === 'projector' ? handle() : this.workflows.during(handle);
  }

  /**
   * Sleeps until an append may have brought an event to handle, or `ms` pass (the poll backstop),
   * moving over the appends of ignored events meanwhile. `seen` is the append count before the last read.
   * A projector looks only once this process's workflows let it (`WorkflowActivity.settled`).
   */
  private async idle(ms: number, seen: number): Promise<void> {
    const until = Date.now() + ms;
    for (;;) {
      if (this.subscriber.kind === 'projector') await this.workflows.settled();
      const run = this.loop.stopped ? undefined : this.heard.next(this.position, this.batchSize);
      if (run === undefined) return;
      if (run.events.length > 0) {
        this.local = run;
        return;
      }
      if (run.to > this.position) {
        this.position = run.to;
        await this.saveIdlePosition(false);
      }
      const left = until - Date.now();
      if (left <= 0) return;
      await this.notifier.nextAppend(left, this.loop.signal, seen);
      seen = this.notifier.appendCount;
    }
  }

  private checkpointed(): void {
    this.notifier.checkpointed({ checkpoint: this.name, position: this.stored, holding: this.handler.holding?.() ?? false });
  }

  private handles(event: StoredEvent): boolean {
    return this.subscriber.handlers.has(event.type) && partitionOf(this.subscriber, event, this.partition.count) === this.partition.index;
  }

  /** Until the next poll, or sooner when a held event is due for a retry. */
  private idleWait(nextDueAt: number | undefined): number {
    return nextDueAt === undefined ? this.settings.pollIntervalMs : Math.max(0, Math.min(this.settings.pollIntervalMs, nextDueAt - Date.now()));
  }

  private get batchSize(): number {
    return this.subscriber.options.batchSize ?? DEFAULT_BATCH_SIZE;
  }

  /**
   * This process's appends that follow on from the position, taken as committed instead of read: what
   * the idle wait found, or, after a batch, the next run heard of (unless a read ahead is under way).
   */
  private taken(limit: number): EventPage | undefined {
    const run = this.local ?? (this.readAhead ? undefined : this.heard.next(this.position, limit));
    this.local = undefined;
    return run && run.events.length > 0 ? { events: run.events, scannedTo: run.to } : undefined;
  }

  private read(limit: number): Promise<EventPage> {
    const ahead = this.readAhead;
    this.readAhead = undefined;
    // Read ahead from a position the subscription left (another instance moved the checkpoint): not ours.
    return ahead?.after === this.position ? ahead.page : this.readPage(this.position, limit);
  }

  private readPage(afterPosition: number, limit: number): Promise<EventPage> {
    this.heard.reading();
    const page = this.store.readPartition({ afterPosition, limit, partition: this.readFilter, types: this.handledTypes });
    // A read ahead that is never used must not fail unobserved; a used one rethrows to its reader.
    page.catch(() => undefined);
    return page;
  }

  /** Saves a position that moved only over ignored events: now and then, and at stop. */
  private async saveIdlePosition(force: boolean): Promise<void> {
    if (this.position === this.stored) return;
    const now = Date.now();
    if (!force && now - this.lastIdleSave < this.settings.idleCheckpointIntervalMs) return;
    this.lastIdleSave = now;
    const stored = await this.checkpoints.load(this.name);
    // Never move a checkpoint backwards over work another instance committed.
    if (stored <= this.position) await this.checkpoints.save(this.name, this.position);
    this.stored = Math.max(stored, this.position);
  }
}
