import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AggregateDefinition } from '../model/aggregate-definition.js';
import { EVENT_SOURCING_OPTIONS, type EventSourcingModuleOptions } from '../config/event-sourcing-options.js';
import { streamFromSnapshot } from '../snapshot/stream-from-snapshot.js';
import { streamKey, type StoredEvent, type StreamId } from '../model/event-envelope.js';
import { EVENT_STORE, type EventStore, type StreamLoads } from '../store/event-store.js';
import { SNAPSHOT_STORE, type SnapshotStore } from '../store/snapshot-store.js';
import { replay, type ReplayableEvent } from './aggregate-replayer.js';
import { LruCache } from './lru-cache.js';

export interface LoadedAggregate {
  state: unknown;
  sequence: number;
}

const DEFAULT_CACHE_SIZE = 10_000;

/**
 * Rebuilds aggregate state: cached state or the newest usable snapshot, plus the events after
 * it (for a cold aggregate, both in one read when the adapter can). Callers must hold the
 * aggregate's dispatcher lane: the cached state is advanced in place.
 */
@Injectable()
export class AggregateLoader {
  private readonly logger = new Logger('AggregateLoader');
  private readonly cache: LruCache<string, LoadedAggregate>;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore & Partial<StreamLoads>,
    @Inject(SNAPSHOT_STORE) private readonly snapshots: SnapshotStore,
    @Inject(EVENT_SOURCING_OPTIONS) options: EventSourcingModuleOptions,
  ) {
    this.cache = new LruCache(options.aggregateCacheSize ?? DEFAULT_CACHE_SIZE);
  }

  /** The current state; catches up from the cache with one read, so other instances' appends are seen. */
  async load(aggregate: AggregateDefinition, stream: StreamId): Promise<LoadedAggregate> {
    return (await this.catchUp(aggregate, stream)).loaded;
  }

  /** Like `load`, also telling which events it found beyond the cached (or snapshot) state. */
  async catchUp(aggregate: AggregateDefinition, stream: StreamId): Promise<{ loaded: LoadedAggregate; missed: StoredEvent[] }> {
    const key = streamKey(stream);
    const cached = this.cache.get(key);
    const { base, missed } =
      cached === undefined
        ? await this.fromStore(aggregate, stream)
        : { base: cached, missed: await this.store.readStream(stream, { afterSequence: cached.sequence }) };
    const loaded = missed.length === 0 ? base : { state: replay(aggregate, base.state, missed), sequence: lastSequence(missed) };
    this.cache.set(key, loaded);
    return { loaded, missed };
  }

  /** The cached state as it is, without asking the store: it may be behind other instances' appends. */
  cached(stream: StreamId): LoadedAggregate | undefined {
    return this.cache.get(streamKey(stream));
  }

  /** The state at exactly `sequence` (for merges), built fresh: never the cached object. */
  async loadAt(aggregate: AggregateDefinition, stream: StreamId, sequence: number): Promise<LoadedAggregate> {
    const { base, missed: events } = await this.fromStore(aggregate, stream, sequence);
    const state = replay(aggregate, base.state, events);
    const reached = events.length === 0 ? base.sequence : lastSequence(events);
    if (reached !== sequence) throw new Error(`${stream.aggregateType}/${stream.aggregateId} has no sequence ${sequence}`);
    return { state, sequence };
  }

  /** Applies events that were just stored to the cached state of a loaded aggregate. */
  advance(aggregate: AggregateDefinition, stream: StreamId, loaded: LoadedAggregate, events: readonly ReplayableEvent[], sequence: number): LoadedAggregate {
    const next = { state: replay(aggregate, loaded.state, events), sequence };
    this.cache.set(streamKey(stream), next);
    return next;
  }

  /** Forgets cached state (after a failed append its in-place state may be ahead of the store). */
  forget(stream: StreamId): void {
    this.cache.delete(streamKey(stream));
  }

  /** The newest usable snapshot (or the initial state) and the events after it, up to `atOrBelow`. */
  private async fromStore(aggregate: AggregateDefinition, stream: StreamId, atOrBelow?: number): Promise<{ base: LoadedAggregate; missed: StoredEvent[] }> {
    // Always looked up, also under the 'none' policy: a handler may still have handed back state.
    const { snapshot, events } = await streamFromSnapshot(this.store, this.snapshots, stream, aggregate.stateVersion, atOrBelow, this.logger);
    const base = snapshot ? { state: snapshot.state, sequence: snapshot.sequence } : { state: aggregate.initialState(), sequence: 0 };
    return { base, missed: events };
  }
}

function lastSequence(events: readonly StoredEvent[]): number {
  return events[events.length - 1].sequence;
}
