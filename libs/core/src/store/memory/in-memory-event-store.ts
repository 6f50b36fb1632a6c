import type { StoredEvent, StreamId } from '../../model/event-envelope.js';
import { sliceOfKey } from '../../model/key-partition.js';
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
} from '../event-store.js';
import { assertStorable } from '../storable-value.js';
import { ConcurrencyError, DuplicateCommandError, DuplicateExternalIdError } from '../store-errors.js';
import { jsonCopy } from './json-copy.js';

const DEFAULT_READ_LIMIT = 1000;
const DEFAULT_IDS_LIMIT = 1000;

interface Stream {
  events: StoredEvent[];
  commands: Map<string, CommandRecord>;
  externalIds: Map<string, StoredEvent>;
}

/**
 * The event store in this process's memory, for fast tests and prototypes: the same contract as
 * the TypeORM adapter (atomic appends, the sequence guard, command and external-id records),
 * nothing survives a restart. Appends run synchronously between awaits, so they never interleave.
 */
export class InMemoryEventStore implements EventStore {
  private readonly all: StoredEvent[] = [];
  private readonly streams = new Map<string, Stream>();
  private readonly eventIds = new Set<string>();

  async append(request: AppendRequest): Promise<AppendResult> {
    const { stream, expectedSequence, commandId } = request;
    for (const event of request.events) {
      assertStorable(event.payload, event.type);
      assertStorable(event.metadata, `${event.type} metadata`);
    }
    const entry = this.streamOf(stream, true)!;
    if (commandId !== undefined && entry.commands.has(commandId)) throw new DuplicateCommandError(stream, commandId);
    if (entry.events.length !== expectedSequence) throw new ConcurrencyError(stream, expectedSequence, entry.events.length);
    const ids = new Set<string>();
    for (const event of request.events) {
      const { eventId, externalId } = event.metadata;
      if (this.eventIds.has(eventId) || ids.has(eventId)) throw new Error(`event id ${eventId} is already stored`);
      ids.add(eventId);
      if (externalId !== undefined && entry.externalIds.has(externalId)) throw new DuplicateExternalIdError(stream, externalId);
    }
    const now = new Date();
    const stored = request.events.map((event, index): StoredEvent => ({
      position: this.all.length + index + 1,
      aggregateType: stream.aggregateType,
      aggregateId: stream.aggregateId,
      sequence: expectedSequence + index + 1,
      type: event.type,
      schemaVersion: event.schemaVersion ?? 1,
      payload: jsonCopy(event.payload),
      metadata: jsonCopy(event.metadata),
      occurredAt: new Date((event.occurredAt ?? now).getTime()),
    }));
    for (const event of stored) {
      this.all.push(event);
      entry.events.push(event);
      this.eventIds.add(event.metadata.eventId);
      if (event.metadata.externalId !== undefined) entry.externalIds.set(event.metadata.externalId, event);
    }
    const sequence = expectedSequence + stored.length;
    if (commandId !== undefined) entry.commands.set(commandId, { commandId, stream: { ...stream }, sequence, events: stored, fingerprint: request.commandFingerprint ?? null });
    return { stream: { ...stream }, sequence, events: stored.map(copy) };
  }

  async readStream(stream: StreamId, options: ReadStreamOptions = {}): Promise<StoredEvent[]> {
    const events = this.streamOf(stream)?.events ?? [];
    const after = options.afterSequence ?? 0;
    const to = options.toSequence ?? Number.MAX_SAFE_INTEGER;
    return events.slice(after, Math.max(after, to)).map(copy);
  }

  async streamIds(aggregateType: string, options: StreamIdsOptions = {}): Promise<string[]> {
    const ids: string[] = [];
    for (const events of this.streams.values()) {
      const first = events.events[0];
      if (first?.aggregateType === aggregateType && (options.afterId === undefined || first.aggregateId > options.afterId)) ids.push(first.aggregateId);
    }
    return ids.sort().slice(0, options.limit ?? DEFAULT_IDS_LIMIT);
  }

  async streamSequence(stream: StreamId): Promise<number> {
    return this.streamOf(stream)?.events.length ?? 0;
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    const after = options.afterPosition ?? 0;
    return this.all.slice(after, after + (options.limit ?? DEFAULT_READ_LIMIT)).map(copy);
  }

  async readPartition(options: ReadPartitionOptions): Promise<EventPage> {
    const after = options.afterPosition ?? 0;
    const limit = options.limit ?? DEFAULT_READ_LIMIT;
    const { index, count } = options.partition;
    const types = options.types && new Set(options.types);
    const events: StoredEvent[] = [];
    for (let i = after; i < this.all.length && events.length < limit; i++) {
      const event = this.all[i];
      if (types && !types.has(event.type)) continue;
      // One partition takes every event: no hash to compute.
      if (count === 1 || sliceOfKey(event.aggregateId, count) === index) events.push(copy(event));
    }
    const scannedTo = events.length === limit ? events[limit - 1].position : Math.max(after, this.all.length);
    return { events, scannedTo };
  }

  async readByCorrelation(correlationId: string, options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    const after = options.afterPosition ?? 0;
    return this.all
      .slice(after)
      .filter((event) => event.metadata.correlationId === correlationId)
      .slice(0, options.limit ?? DEFAULT_READ_LIMIT)
      .map(copy);
  }

  async headPosition(): Promise<number> {
    return this.all.length;
  }

  async findCommand(stream: StreamId, commandId: string): Promise<CommandRecord | null> {
    const record = this.streamOf(stream)?.commands.get(commandId);
    return record ? { ...record, stream: { ...record.stream }, events: record.events.map(copy) } : null;
  }

  async findByExternalId(stream: StreamId, externalId: string): Promise<StoredEvent | null> {
    const event = this.streamOf(stream)?.externalIds.get(externalId);
    return event ? copy(event) : null;
  }

  private streamOf(stream: StreamId, create = false): Stream | undefined {
    const key = `${stream.aggregateType}\u0000${stream.aggregateId}`;
    let entry = this.streams.get(key);
    if (!entry && create) {
      entry = { events: [], commands: new Map(), externalIds: new Map() };
      this.streams.set(key, entry);
    }
    return entry;
  }
}

function copy(event: StoredEvent): StoredEvent {
  return { ...event, payload: jsonCopy(event.payload), metadata: jsonCopy(event.metadata), occurredAt: new Date(event.occurredAt.getTime()) };
}
