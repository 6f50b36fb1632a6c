import { Inject, Injectable } from '@nestjs/common';
import type { CommandResult } from '../model/send-options.js';
import { SyncMode } from '../model/send-options.js';
import { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import type { SubscriberKind } from '../decorators/subscriber-types.js';
import { SyncTimeoutError } from '../errors/index.js';
import { EventNotifier } from '../runtime/event-notifier.js';
import type { StoredEvent } from '../model/event-envelope.js';
import { CHECKPOINT_STORE, type CheckpointStore } from '../store/checkpoint-store.js';
import { CheckpointView, type Need, type Pending } from './checkpoint-view.js';
import { CorrelationHeard } from './correlation-heard.js';
import { EVENT_STORE, type CapableEventStore } from '../store/event-store.js';
import { EVENT_SOURCING_OPTIONS, type EventSourcingModuleOptions } from '../config/event-sourcing-options.js';
import { checkpointName, partitionCount, partitionOf } from '../discovery/subscriber-partitions.js';

/** The backstop between checkpoint reads when no in-process wake-up comes (other instances). */
const POLL_MS = 25;

/** One subscriber done with a command's consequences: its checkpoint (or partition's) has passed them. */
export interface CommandStep {
  /** The checkpoint: the subscriber's name, or one of its partitions' with scale-out. */
  subscriber: string;
  kind: SubscriberKind;
  /** The last position of the command's consequences it handles. */
  position: number;
}

/** What `follow` tells, and what it told already (checkpoint -> position). */
interface Progress {
  onStep: (step: CommandStep) => void;
  told: Map<string, number>;
}

const ALL_KINDS: readonly SubscriberKind[] = ['projector', 'saga', 'process-manager'];

/** What one wait follows: the checkpoints, and (CASCADE opened before the append) this process's appends. */
class Followed {
  constructor(
    readonly view: CheckpointView,
    readonly heard?: CorrelationHeard,
  ) {}

  close(): void {
    this.view.close();
    this.heard?.close();
  }
}

/**
 * Decides from the store, not from a bus (a bus message can be late, lost or go to another
 * instance; the store is what every instance sees), when a command's
 * consequences are visible: SIMPLE waits for the projectors of its events to checkpoint past
 * them; CASCADE follows the workflow through the store (every event of the command's correlation
 * from the command's first event on) until every subscriber of each has passed it and no new
 * event appeared; the store is read again only after a hop that a saga or process manager took
 * part in, as projectors add nothing to a cascade. In-process checkpoint moves make it fast (it
 * follows them in a CheckpointView instead of reading the store at each, from before the command
 * appends, and a hop done wholly by this process's subscribers through this process's appends);
 * polling makes it true across instances.
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

  /**
   * Sends the command and, unless `mode` is ASYNC, waits for its consequences. What the wait follows
   * is opened before the command runs: this process's checkpoint moves and appends after the append
   * are then all in it, and a wait that only this process's subscribers took part in reads nothing.
   */
  async send(mode: SyncMode, timeoutMs: number, command: () => Promise<CommandResult>, correlationOf: (result: CommandResult) => string): Promise<CommandResult> {
    if (mode === SyncMode.ASYNC) return command();
    const followed = this.open(mode === SyncMode.CASCADE);
    try {
      const result = await command();
      // A repeat's events were stored before the view opened: its subscribers may have passed them long ago.
      if (result.duplicate) followed.view.invalidate();
      if (result.events.length === 0) return result;
      const correlationId = correlationOf(result);
      followed.heard?.keepOnly(correlationId);
      await this.track(this.waitFor(result, mode, timeoutMs, correlationId, followed));
      return result;
    } finally {
      followed.close();
    }
  }

  /**
   * As CASCADE waits, telling `onStep` each time a subscriber (a checkpoint: one partition of it
   * with scale-out) has handled the command's consequences it handles, as far as they are known then.
   */
  async follow(result: CommandResult, timeoutMs: number, correlationId: string, onStep: (step: CommandStep) => void): Promise<void> {
    if (result.events.length === 0) return;
    // Opened after the append: the view reads the store first, and the correlation is read after each hop.
    const followed = new Followed(new CheckpointView(this.notifier, this.checkpoints));
    try {
      await this.track(this.waitFor(result, SyncMode.CASCADE, timeoutMs, correlationId, followed, { onStep, told: new Map() }));
    } finally {
      followed.close();
    }
  }

  /** Ends the waits in flight (each after at most one more read of the store) and every later one with SYNC_TIMEOUT. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled([...this.running]);
  }

  private async track(waiting: Promise<void>): Promise<void> {
    this.running.add(waiting);
    try {
      await waiting;
    } finally {
      this.running.delete(waiting);
    }
  }

  private open(cascade: boolean): Followed {
    return new Followed(new CheckpointView(this.notifier, this.checkpoints, true), cascade ? new CorrelationHeard(this.notifier) : undefined);
  }

  private async waitFor(result: CommandResult, mode: SyncMode, timeoutMs: number, correlationId: string, { view, heard }: Followed, progress?: Progress): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    if (mode === SyncMode.SIMPLE) {
      await this.until(deadline, result, view, this.needs(result.events, ['projector']), progress);
      return;
    }
    const first = result.events[0].position;
    // The command's own events first: what followed from them is read once their subscribers passed them.
    let cascade: readonly StoredEvent[] = result.events;
    let newest: readonly StoredEvent[] = result.events;
    for (;;) {
      await this.until(deadline, result, view, this.needs(cascade, ALL_KINDS), progress);
      // Only sagas and process managers add to a cascade: when none handles the newest events, nothing follows them.
      if (!newest.some((event) => this.startsWork(event))) return;
      // What only this process's subscribers did is in its own appends; anything else is read.
      const ownOnly = view.onlyOwnMoves ? heard?.eventsOf(correlationId, first, cascade) : undefined;
      const events = ownOnly ?? (await this.store.readByCorrelation(correlationId, { afterPosition: first - 1 }));
      // Sagas checkpoint only after what they emitted is stored: no new event now means the cascade is done.
      if (events.length <= cascade.length) return;
      const known = new Set(cascade.map((event) => event.position));
      newest = events.filter((event) => !known.has(event.position));
      cascade = events;
    }
  }

  /** True when a saga or process manager handles the event: what it emits joins the cascade before it checkpoints. */
  private startsWork(event: StoredEvent): boolean {
    return this.registry.subscribersOf(event.type).some((subscriber) => subscriber.kind !== 'projector');
  }

  /** For each checkpoint that handles some of `events`: the positions it must pass, and its kind. */
  private needs(events: readonly StoredEvent[], kinds: readonly SubscriberKind[]): Map<string, Need> {
    const needed = new Map<string, Need>();
    const count = partitionCount(this.options.processing);
    for (const event of events) {
      for (const subscriber of this.registry.subscribersOf(event.type)) {
        if (!kinds.includes(subscriber.kind)) continue;
        // Only the partition the event belongs to handles it (and checkpoints past it).
        const name = checkpointName(subscriber.name, { index: partitionOf(subscriber, event, count), count });
        const need = needed.get(name) ?? { kind: subscriber.kind, positions: [] };
        need.positions.push(event.position);
        needed.set(name, need);
      }
    }
    return needed;
  }

  private async until(deadline: number, result: CommandResult, view: CheckpointView, needed: ReadonlyMap<string, Need>, progress?: Progress): Promise<void> {
    for (;;) {
      const seen = this.notifier.checkpointCount;
      const pending = await view.pending(needed);
      if (progress) tell(progress, needed, pending);
      if (pending.length === 0) return;
      if (this.stopping.signal.aborted) throw late(result, pending, 'before the service shut down');
      const left = deadline - Date.now();
      if (left <= 0) throw late(result, pending, 'within the sync timeout');
      await this.notifier.nextCheckpoint(Math.min(POLL_MS, left), this.stopping.signal, seen);
      // No move announced: the poll backstop, for what other instances did without a wake-up.
      if (this.notifier.checkpointCount === seen) view.invalidate();
    }
  }
}

/** Tells each checkpoint that is done with what it needed (once per position it reached). */
function tell(progress: Progress, needed: ReadonlyMap<string, Need>, pending: readonly Pending[]): void {
  const waiting = new Set(pending.map((p) => p.subscriber));
  for (const [subscriber, { kind, positions }] of needed) {
    const position = Math.max(...positions);
    if (waiting.has(subscriber) || progress.told.get(subscriber) === position) continue;
    progress.told.set(subscriber, position);
    progress.onStep({ subscriber, kind, position });
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
