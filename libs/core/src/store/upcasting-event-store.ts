import type { StoredEvent, StreamId } from '../model/event-envelope.js';
import type {
  AppendRequest,
  AppendResult,
  CapableEventStore,
  CommandRecord,
  EventPage,
  LoadedStream,
  LoadStreamOptions,
  ReadAllOptions,
  ReadPartitionOptions,
  ReadStreamOptions,
  StreamIdsOptions,
  StreamLoads,
} from './event-store.js';
import { type AdapterEventStore, type EventStoreCapability, missingCapabilityError } from './event-store-capabilities.js';
import { readPartitionThroughReadAll } from './partition-fallback.js';

/** Brings stored events to the shape the running code expects (event names and upcasters). */
export interface EventUpcaster {
  /** The same array when nothing needed changing. */
  upcast(events: StoredEvent[]): StoredEvent[];
  /** The names events that read as `type` may be stored under (its current name and former ones). */
  storedNames(type: string): readonly string[];
}

/**
 * The event store every part of the runtime reads through: each read path (aggregate loads,
 * merges, subscriptions, the HTTP listing, idempotent repeats) gets upcast events from one place,
 * whichever adapter stores them. An optional capability the adapter lacks fails with an error that
 * names it (the lifecycle checks at boot for the ones the application needs).
 */
export class UpcastingEventStore implements CapableEventStore, Partial<StreamLoads> {
  /**
   * The adapter's one-read load of a cold aggregate, its events upcast; absent when the adapter has
   * none, so that the loader knows to read the snapshot and the events apart.
   */
  readonly loadStream?: (stream: StreamId, options: LoadStreamOptions) => Promise<LoadedStream>;

  constructor(
    readonly inner: AdapterEventStore,
    private readonly upcaster: EventUpcaster,
    private readonly adapterName = 'custom',
  ) {
    const loadStream = inner.loadStream;
    if (typeof loadStream === 'function') {
      this.loadStream = async (stream, options) => {
        const { snapshot, events } = await loadStream.call(inner, stream, options);
        return { snapshot, events: this.upcaster.upcast(events) };
      };
    }
  }

  append(request: AppendRequest): Promise<AppendResult> {
    return this.inner.append(request);
  }

  async readStream(stream: StreamId, options?: ReadStreamOptions): Promise<StoredEvent[]> {
    return this.upcaster.upcast(await this.inner.readStream(stream, options));
  }

  streamIds(aggregateType: string, options?: StreamIdsOptions): Promise<string[]> {
    return this.capability('streamIds').call(this.inner, aggregateType, options);
  }

  streamSequence(stream: StreamId): Promise<number> {
    return this.inner.streamSequence(stream);
  }

  async readAll(options?: ReadAllOptions): Promise<StoredEvent[]> {
    return this.upcaster.upcast(await this.inner.readAll(options));
  }

  async readPartition(options: ReadPartitionOptions): Promise<EventPage> {
    const types = options.types?.flatMap((type) => this.upcaster.storedNames(type));
    const stored = types === undefined ? options : { ...options, types };
    const page = this.inner.readPartition ? await this.inner.readPartition(stored) : await readPartitionThroughReadAll(this.inner, stored);
    return { ...page, events: this.upcaster.upcast(page.events) };
  }

  async readByCorrelation(correlationId: string, options?: ReadAllOptions): Promise<StoredEvent[]> {
    return this.upcaster.upcast(await this.capability('readByCorrelation').call(this.inner, correlationId, options));
  }

  headPosition(): Promise<number> {
    return this.inner.headPosition();
  }

  async findCommand(stream: StreamId, commandId: string): Promise<CommandRecord | null> {
    const record = await this.inner.findCommand(stream, commandId);
    return record && { ...record, events: this.upcaster.upcast(record.events) };
  }

  async findByExternalId(stream: StreamId, externalId: string): Promise<StoredEvent | null> {
    const event = await this.capability('findByExternalId').call(this.inner, stream, externalId);
    return event && this.upcaster.upcast([event])[0];
  }

  private capability<K extends Exclude<EventStoreCapability, 'readPartition' | 'loadStream'>>(name: K): NonNullable<AdapterEventStore[K]> {
    const method = this.inner[name];
    if (typeof method !== 'function') throw missingCapabilityError(this.adapterName, name);
    return method as NonNullable<AdapterEventStore[K]>;
  }
}
