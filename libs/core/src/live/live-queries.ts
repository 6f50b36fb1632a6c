import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { type Observable, finalize, startWith } from 'rxjs';
import { EVENT_SOURCING_OPTIONS, type EventSourcingModuleOptions } from '../config/event-sourcing-options.js';
import { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import { InvalidArgumentError, UnavailableError } from '../errors/index.js';
import { EventNotifier } from '../runtime/event-notifier.js';
import { ReadModelChanges } from '../runtime/read-model-changes.js';
import { WAKE_CHANNEL, type WakeChannel } from '../store/wake-channel.js';
import { LiveWatcher, type LiveMessage, type LiveQueryTrigger } from './live-watcher.js';

const DEFAULT_MAX_WATCHERS = 1000;
const DEFAULT_HEARTBEAT_MS = 15_000;
const DEFAULT_POLL_MS = 5_000;

/**
 * Queries whose clients are told when the answer changes. A projector says which keys an event
 * changed (`ctx.changed(key)`); once that transaction committed, the live queries watching those
 * keys run again, and a client gets the new answer if it differs. The read model stays the truth:
 * a wake-up from another instance re-runs every live query (the other instance's keys are not
 * known here), and with several instances a poll does the same as a backstop.
 */
@Injectable()
export class LiveQueries implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('LiveQueries');
  private readonly watchers = new Set<LiveWatcher<unknown>>();
  private readonly stops: Array<() => void> = [];

  constructor(
    private readonly notifier: EventNotifier,
    private readonly changes: ReadModelChanges,
    private readonly registry: EventSourcingRegistry,
    @Inject(EVENT_SOURCING_OPTIONS) private readonly options: EventSourcingModuleOptions,
    @Inject(WAKE_CHANNEL) private readonly channel: WakeChannel | null,
  ) {}

  onModuleInit(): void {
    this.stops.push(
      this.changes.onChange((projector, keys) => this.rerunChanged(projector, keys)),
      this.notifier.onCheckpointElsewhere(() => this.rerunAll()),
    );
    const heartbeat = setInterval(() => this.watchers.forEach((watcher) => watcher.heartbeat()), this.options.live?.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
    heartbeat.unref();
    this.stops.push(() => clearInterval(heartbeat));
    if (this.channel) {
      const poll = setInterval(() => this.rerunAll(), this.options.live?.pollMs ?? DEFAULT_POLL_MS);
      poll.unref();
      this.stops.push(() => clearInterval(poll));
    }
  }

  /**
   * Runs `query` and answers its results as they change, for a Nest `@Sse` route (or any
   * subscriber): the first result at once, then each different one after a trigger, and a heartbeat
   * now and then. Rejects with what the first run throws (so the route answers that error), with
   * UNAVAILABLE when this process serves `live.maxWatchers` live queries already, and with
   * INVALID_ARGUMENT for a trigger that names no projector.
   */
  async watch<T>(triggers: LiveQueryTrigger | readonly LiveQueryTrigger[], query: () => Promise<T>): Promise<Observable<LiveMessage<T>>> {
    const list = Array.isArray(triggers) ? (triggers as readonly LiveQueryTrigger[]) : [triggers as LiveQueryTrigger];
    this.assertProjectors(list);
    const max = this.options.live?.maxWatchers ?? DEFAULT_MAX_WATCHERS;
    if (this.watchers.size >= max) throw new UnavailableError(`this process serves ${max} live queries already (live.maxWatchers); try again later`);
    const first = await query();
    const watcher = new LiveWatcher(query, list, first, this.logger);
    this.watchers.add(watcher as LiveWatcher<unknown>);
    const forget = () => this.watchers.delete(watcher as LiveWatcher<unknown>);
    return watcher.messages.pipe(
      startWith<LiveMessage<T>>({ type: 'update', data: first }),
      finalize(forget),
    );
  }

  /** How many live queries this process serves now. */
  get size(): number {
    return this.watchers.size;
  }

  beforeApplicationShutdown(): void {
    for (const stop of this.stops.splice(0)) stop();
    for (const watcher of [...this.watchers]) watcher.close();
    this.watchers.clear();
  }

  private rerunChanged(projector: string, keys: ReadonlySet<string>): void {
    for (const watcher of this.watchers) if (watcher.watches(projector, keys)) watcher.rerun();
  }

  private rerunAll(): void {
    for (const watcher of this.watchers) watcher.rerun();
  }

  private assertProjectors(triggers: readonly LiveQueryTrigger[]): void {
    if (triggers.length === 0) throw new InvalidArgumentError('a live query needs at least one trigger ({ projector, key? })');
    for (const { projector } of triggers) {
      if (this.registry.subscribers.get(projector)?.kind !== 'projector') {
        throw new InvalidArgumentError(`a live query watches projector '${projector}', which is not a @Projector of this application`);
      }
    }
  }
}
