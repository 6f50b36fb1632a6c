import type { StoredEvent, StreamId } from '../model/event-envelope.js';
import type {
  AppendRequest,
  AppendResult,
  CommandRecord,
  EventPage,
  EventStore,
  ReadAllOptions,
  ReadPartitionOptions,
  ReadStreamOptions,
  StreamIdsOptions,
} from './event-store.js';

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
 * whichever adapter stores them.
 */
export class UpcastingEventStore implements EventStore {
  constructor(
    readonly inner: EventStore,
    private readonly upcaster: EventUpcaster,
  ) {}

  append(request: AppendRequest): Promise<AppendResult> {
    return this.inner.append(request);
  }

  async readStream(stream: StreamId, options?: ReadStreamOptions): Promise<StoredEvent[]> {
    return this.upcaster.upcast(await this.inner.readStream(stream, options));
  }

  streamIds(aggregateType: string, options?: StreamIdsOptions): Promise<string[]> {
    return this.inner.streamIds(aggregateType, options);
  }

  streamSequence(stream: StreamId): Promise<number> {
    return this.inner.streamSequence(stream);
  }

  async readAll(options?: ReadAllOptions): Promise<StoredEvent[]> {
    return this.upcaster.upcast(await this.inner.readAll(options));
  }

  async readPartition(options: ReadPartitionOptions): Promise<EventPage> {
    const types = options.types?.flatMap((type) => this.upcaster.storedNames(type));
    const page = await this.inner.readPartition(types === undefined ? options : { ...options, types });
    return { ...page, events: this.upcaster.upcast(page.events) };
  }

  async readByCorrelation(correlationId: string, options?: ReadAllOptions): Promise<StoredEvent[]> {
    return this.upcaster.upcast(await this.inner.readByCorrelation(correlationId, options));
  }

  headPosition(): Promise<number> {
    return this.inner.headPosition();
  }

  async findCommand(stream: StreamId, commandId: string): Promise<CommandRecord | null> {
    const record = await this.inner.findCommand(stream, commandId);
    return record && { ...record, events: this.upcaster.upcast(record.events) };
  }

  async findByExternalId(stream: StreamId, externalId: string): Promise<StoredEvent | null> {
    const event = await this.inner.findByExternalId(stream, externalId);
    return event && this.upcaster.upcast([event])[0];
  }
}
