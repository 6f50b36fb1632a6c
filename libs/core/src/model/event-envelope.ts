/** Metadata stamped on every stored event: who caused it and which workflow it belongs to. */
export interface EventMetadata {
  eventId: string;
  commandId: string | null;
  correlationId: string;
  causationId: string | null;
  /** Facts only: the id the outside world gave this happening; the store de-duplicates on it. */
  externalId?: string;
  [key: string]: unknown;
}

/** An event on its way into the store. */
export interface NewEvent {
  type: string;
  payload: unknown;
  /** 1 until the event's shape changes (room for upcasters). */
  schemaVersion?: number;
  metadata: EventMetadata;
  occurredAt?: Date;
}

/** An event as the store holds it. */
export interface StoredEvent<P = unknown> {
  /** Store-wide, only grows; may have gaps. */
  position: number;
  aggregateType: string;
  aggregateId: string;
  /** Per aggregate: 1, 2, 3 ... without gaps. */
  sequence: number;
  type: string;
  schemaVersion: number;
  payload: P;
  metadata: EventMetadata;
  occurredAt: Date;
}

/** The highest sequence an aggregate can reach: sequences are 32-bit integers in the stores' schemas. */
export const MAX_SEQUENCE = 2_147_483_647;

export interface StreamId {
  aggregateType: string;
  aggregateId: string;
}

/** One string per stream (for maps and caches keyed by stream). */
export function streamKey(stream: StreamId): string {
  return `${stream.aggregateType}\u0000${stream.aggregateId}`;
}
