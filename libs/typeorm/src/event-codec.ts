import type { EventMetadata, StoredEvent } from '@nest-es/core';

export const EVENT_COLUMNS =
  'position, aggregate_type, aggregate_id, sequence, event_type, schema_version, payload, metadata, occurred_at, ' +
  'event_id, command_id, correlation_id, causation_id, external_id';

export const STREAM_SEQUENCE_SQL =
  'SELECT sequence FROM es_events WHERE aggregate_type = ? AND aggregate_id = ? ORDER BY sequence DESC LIMIT 1';

/** A row of EVENT_COLUMNS as either database returns it (see SqlClient). */
export interface EventRow {
  position: number;
  aggregate_type: string;
  aggregate_id: string;
  sequence: number;
  event_type: string;
  schema_version: number;
  payload: string;
  metadata: string | null;
  occurred_at: number | Date;
  event_id: string;
  command_id: string | null;
  correlation_id: string;
  causation_id: string | null;
  external_id: string | null;
}

export function decodeEvent(row: EventRow): StoredEvent {
  const metadata: EventMetadata = {
    eventId: row.event_id,
    commandId: row.command_id,
    correlationId: row.correlation_id,
    causationId: row.causation_id,
  };
  if (row.external_id !== null) metadata.externalId = row.external_id;
  if (row.metadata !== null) Object.assign(metadata, JSON.parse(row.metadata));
  return {
    position: row.position,
    aggregateType: row.aggregate_type,
    aggregateId: row.aggregate_id,
    sequence: row.sequence,
    type: row.event_type,
    schemaVersion: row.schema_version,
    payload: JSON.parse(row.payload),
    metadata,
    occurredAt: row.occurred_at instanceof Date ? row.occurred_at : new Date(row.occurred_at),
  };
}

/**
 * Metadata split into its columns and the other keys (null when there are none): the ids live in
 * columns for lookups, and rebuilding them into an object on read is cheaper than parsing them as JSON.
 */
export function encodeMetadata(metadata: EventMetadata) {
  const { eventId, commandId, correlationId, causationId, externalId, ...rest } = metadata;
  return {
    eventId,
    commandId: commandId ?? null,
    correlationId,
    causationId: causationId ?? null,
    externalId: externalId ?? null,
    extra: Object.keys(rest).length === 0 ? null : rest,
  };
}
