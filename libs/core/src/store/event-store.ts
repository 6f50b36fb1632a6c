import type { NewEvent, StoredEvent, StreamId } from '../model/event-envelope.js';
import type { Partition } from '../model/key-partition.js';
import type { Snapshot } from './snapshot-store.js';

export interface AppendRequest {
  stream: StreamId;
  /** The stream's sequence the events were decided on (0 = new stream). */
  expectedSequence: number;
  events: NewEvent[];
  /** Recorded with the events in one transaction; a repeat of it is refused with DuplicateCommandError. */
  commandId?: string;
  /** What the command was (type and payload, hashed), kept with `commandId` so a repeat can be told from a reuse. */
  commandFingerprint?: string;
}

export interface AppendResult {
  stream: StreamId;
  /** The stream's sequence after the append. */
  sequence: number;
  events: StoredEvent[];
}

/** What a command with a given id appended, for idempotent retries. */
export interface CommandRecord {
  commandId: string;
  stream: StreamId;
  /** Sequence of the stream right after the command (= before it when it appended nothing). */
  sequence: number;
  events: StoredEvent[];
  /** The fingerprint the command was recorded with (null: recorded without one). */
  fingerprint: string | null;
}

export interface ReadStreamOptions {
  /** Events with sequence > afterSequence (default 0). */
  afterSequence?: number;
  /** Events with sequence <= toSequence (default: all). */
  toSequence?: number;
}

export interface StreamIdsOptions {
  /** Ids after this one in the store's id order (default: from the first). */
  afterId?: string;
  /** At most this many ids (default 1000). */
  limit?: number;
}

export interface ReadAllOptions {
  /** Events with position > afterPosition (default 0). */
  afterPosition?: number;
  /** At most this many events (default 1000). */
  limit?: number;
}

/** A read of one partition of the log (`EventStore.readPartition`). */
export interface ReadPartitionOptions extends ReadAllOptions {
  /** The events of the aggregates whose id hashes to `index` (`stringHashCode` floor-mod `count`); all when `count` is 1. */
  partition: Partition;
  /** Only events stored under these type names (default: every type). */
  types?: readonly string[];
}

/** A page of one partition's events and how far into the log the read looked for them. */
export interface EventPage {
  /** The partition's events after the position, in position order. */
  events: StoredEvent[];
  /**
   * The position the read covered: the last event's when the page is full (`limit` events), else the
   * head the read saw (never below `afterPosition`). No event of the partition up to it is left
   * unread, so the next read starts after it; a page that is not full means the reader is caught up.
   */
  scannedTo: number;
}

/**
 * The event store port: what every adapter must do. The optional capabilities below are the
 * adapter's to add; the runtime checks at boot for those the application needs, with an error that
 * names what is missing. Held to the contract suite in `@nest-es/core/testing`.
 */
export interface EventStore {
  /**
   * Appends atomically: all events or none. Fails with `ConcurrencyError` (writing nothing)
   * when the stream is not at `expectedSequence`, and with `DuplicateCommandError` when
   * `commandId` was recorded for this stream before, and with `DuplicateExternalIdError` when an
   * event's `metadata.externalId` is already on the stream.
   */
  append(request: AppendRequest): Promise<AppendResult>;

  /** One aggregate's events in sequence order. */
  readStream(stream: StreamId, options?: ReadStreamOptions): Promise<StoredEvent[]>;

  /** The stream's current sequence (0 when it has no events). */
  streamSequence(stream: StreamId): Promise<number>;

  /**
   * Everything after a position, in position order. Never skips an event that a concurrent
   * transaction commits later with a smaller position: such events are held back until
   * every earlier transaction has finished.
   */
  readAll(options?: ReadAllOptions): Promise<StoredEvent[]>;

  /** The highest position a reader of `readAll` may see now (0 when empty). */
  headPosition(): Promise<number>;

  /** What a command id appended on a stream, or null if it was never recorded. */
  findCommand(stream: StreamId, commandId: string): Promise<CommandRecord | null>;
}

/**
 * Optional: `readAll` of one partition, filtered where the events are stored, so a reader of one
 * partition reads (and decodes) only its share of the log. As gap-safe as `readAll`. Without it the
 * subscriptions read with `readAll` and filter in the process.
 */
export interface PartitionReads {
  readPartition(options: ReadPartitionOptions): Promise<EventPage>;
}

/** Optional: events of one correlation (a workflow across aggregates). Needed by CASCADE waits when there are sagas or process managers. */
export interface CorrelationReads {
  /** Events of the correlation after a position, in position order. */
  readByCorrelation(correlationId: string, options?: ReadAllOptions): Promise<StoredEvent[]>;
}

/** Optional: the aggregates of a type. Needed by snapshot rebuilds. */
export interface StreamListing {
  /**
   * The ids of the aggregates of a type that have events, in ascending order, for paging through
   * every aggregate of a type: pass the last id of a page as the next `afterId`.
   */
  streamIds(aggregateType: string, options?: StreamIdsOptions): Promise<string[]>;
}

/** Optional: facts by their external id. Needed when sagas or process managers emit facts. */
export interface ExternalIdLookup {
  /** The stored event with this external id on the stream, if any. */
  findByExternalId(stream: StreamId, externalId: string): Promise<StoredEvent | null>;
}

/** What `StreamLoads.loadStream` starts from: the snapshots it may use, and where the read stops. */
export interface LoadStreamOptions {
  /** Only snapshots taken with this state version are used (as `SnapshotStore.loadLatest`). */
  stateVersion: number;
  /** Neither a snapshot nor an event above this sequence (default: the whole stream). */
  atOrBelow?: number;
}

/** An aggregate's newest usable snapshot (null: none) and its events after the snapshot's sequence. */
export interface LoadedStream {
  /** The newest snapshot of the state version at or below the bound; null when there is none. */
  snapshot: Snapshot | null;
  /** The events after the snapshot's sequence (after 0 without one), up to the bound, in sequence order. */
  events: StoredEvent[];
}

/**
 * Optional: a cold aggregate in one read. The answer is exactly that of the two reads it replaces:
 * `snapshot` is what the adapter's snapshot store `loadLatest(stream, stateVersion, atOrBelow)`
 * returns, and `events` what `readStream(stream, {afterSequence: snapshot?.sequence ?? 0,
 * toSequence: atOrBelow})` returns; a snapshot whose state cannot be read back raises
 * `CorruptSnapshotError`, as from `loadLatest`. So the snapshots it reads must be those of the
 * adapter's own snapshot store. Without it (or when it fails) the aggregate loader makes the two reads.
 */
export interface StreamLoads {
  /** The stream's newest usable snapshot and the events after it, in one read. */
  loadStream(stream: StreamId, options: LoadStreamOptions): Promise<LoadedStream>;
}

/** An event store with every capability: what the runtime reads and writes through. */
export type CapableEventStore = EventStore & PartitionReads & CorrelationReads & StreamListing & ExternalIdLookup;

/** The event store the runtime reads and writes through (the adapter's, with upcasting on every read). */
export const EVENT_STORE = Symbol('EVENT_STORE');
/** The adapter's own event store, as supplied (reads are not upcast). */
export const EVENT_STORE_ADAPTER = Symbol('EVENT_STORE_ADAPTER');
