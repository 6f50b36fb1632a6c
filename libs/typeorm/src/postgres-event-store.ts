import type { StreamId } from '@nest-es/core';
import { stringHashCode } from '@nest-es/core/internal';
import type { AppendRequest } from '@nest-es/core/adapter';
import { streamKey } from '@nest-es/core/internal';
import { AppendPlan, commandKey, type AppendOutcome, type PlannedEvent } from './append-plan.js';
import { encodeMetadata } from './event-codec.js';
import type { AppendFault, AppendWriter } from './group-commit.js';
import type { PostgresSqlClient } from './postgres-sql-client.js';
import { ONE_EVENT_APPEND_SQL } from './postgres-one-event-append.js';
import { pgQuery } from './postgres-statements.js';

/**
 * A batch's append: one statement, so one round trip and one transaction (see migration 3, `es_append`),
 * which also sends the wake-up for other instances when there is one (migration 5).
 */
const APPEND_SQL = 'SELECT kind, ord, value FROM es_append($1, $2, $3, $4, $5, $6, $7, $8, $9)';
/** A batch of one request, what a lone caller sends: the same in less server time (migration 10, `es_append_stream`). */
const APPEND_STREAM_SQL = 'SELECT kind, ord, value FROM es_append_stream($1, $2, $3, $4, $5, $6, $7, $8)';

interface AppendRow {
  kind: 'position' | 'stream' | 'command';
  ord: number;
  value: number;
}

/** What a batch is planned on: each stream's sequence and the recorded command ids (by commandKey). */
interface AssumedState {
  sequences: Map<string, number>;
  recorded: Set<string>;
}

/**
 * PostgreSQL appends: a batch is planned on the state it most likely finds (each stream where its first
 * append expects it, no command id recorded: the aggregate cache and the command-id check before
 * handling make this the common case) and sent as one statement that checks that state under the append
 * lock and inserts, in one round trip and its own transaction. When the state was not as assumed, nothing
 * was written and the statement returned the actual state: the batch is planned on it and sent again.
 */
export class PostgresAppendWriter implements AppendWriter {
  /** The NOTIFY payload each committed batch sends on the schema's wake-up channel; null sends none. */
  wakeUp: string | null = null;

  constructor(private readonly sql: PostgresSqlClient) {}

  async write(requests: readonly AppendRequest[]): Promise<AppendOutcome[]> {
    const streams = new Map<string, StreamId>();
    const sequences = new Map<string, number>();
    for (const { stream, expectedSequence } of requests) {
      const key = streamKey(stream);
      if (streams.has(key)) continue;
      streams.set(key, stream);
      sequences.set(key, expectedSequence);
    }
    let assumed: AssumedState = { sequences, recorded: new Set() };
    for (let attempt = 0; ; attempt++) {
      const plan = new AppendPlan(requests, {
        sequence: (stream) => assumed.sequences.get(streamKey(stream)) ?? 0,
        commandRecorded: (stream, commandId) => assumed.recorded.has(commandKey(stream, commandId)),
      });
      // Planned on the state the database returned, a batch with nothing left to write is decided.
      if (attempt > 0 && plan.events.length === 0 && plan.commands.length === 0) return plan.outcomes([]);
      const rows = await (requests.length === 1
        ? this.sendLone(plan, requests[0].stream, assumed)
        : this.send(plan, [...streams.values()], requests, assumed));
      if (rows.length === 0 || rows[0].kind === 'position') {
        // Rows take positions in the order json_to_recordset yields them, the plan's order.
        return plan.outcomes(rows.map((row) => row.value).sort((a, b) => a - b));
      }
      assumed = actualState(rows, [...streams.values()], requests, assumed);
    }
  }

  faultOf(error: unknown): AppendFault | null {
    // JSON.stringify of a BigInt or a cycle, or an invalid Date.
    if (error instanceof TypeError || error instanceof RangeError) return 'request';
    const { code, constraint } = error as { code?: unknown; constraint?: unknown };
    if (code === '23505') {
      if (constraint === 'es_events_stream_sequence_key') return 'sequence';
      if (constraint === 'es_commands_pkey') return 'command';
      if (constraint === 'es_events_external_id_key') return 'externalId';
    }
    // Integrity constraint violations and data exceptions: bad input of one append.
    return typeof code === 'string' && (code.startsWith('23') || code.startsWith('22')) ? 'request' : null;
  }

  /**
   * A batch of one request: its stream's state and its command id checked, then its events inserted, by
   * es_append_stream; one event with no command id to record goes as its own plain statement.
   */
  private async sendLone(plan: AppendPlan, stream: StreamId, assumed: AssumedState): Promise<AppendRow[]> {
    const head = [stream.aggregateType, stream.aggregateId, stringHashCode(stream.aggregateId), assumed.sequences.get(streamKey(stream)) ?? 0];
    // Sent only while the request is accepted by its plan (a refused one is decided above): its command record is the one to check.
    const command = plan.commands[0];
    const query =
      command === undefined && plan.events.length === 1
        ? pgQuery(ONE_EVENT_APPEND_SQL, [...head, ...oneEventColumns(plan.events[0]), this.wakeUp], this.sql.types)
        : pgQuery(
            APPEND_STREAM_SQL,
            [...head, command?.commandId ?? null, command?.fingerprint ?? null, JSON.stringify(plan.events.map(eventRow)), this.wakeUp],
            this.sql.types,
          );
    return (await this.sql.query<AppendRow>(query)).rows;
  }

  private async send(plan: AppendPlan, streams: StreamId[], requests: readonly AppendRequest[], assumed: AssumedState): Promise<AppendRow[]> {
    // Command ids assumed recorded are refused by the plan and stay recorded: only the others are checked.
    const commands = uncheckedCommands(requests, assumed);
    const events = plan.events.map((planned) => ({
      aggregate_type: planned.stream.aggregateType,
      aggregate_id: planned.stream.aggregateId,
      aggregate_hash: stringHashCode(planned.stream.aggregateId),
      ...eventRow(planned),
    }));
    const commandRows = plan.commands.map((command) => ({
      aggregate_type: command.stream.aggregateType,
      aggregate_id: command.stream.aggregateId,
      command_id: command.commandId,
      fingerprint: command.fingerprint,
      sequence_before: command.sequenceBefore,
      sequence_after: command.sequenceAfter,
    }));
    const { rows } = await this.sql.query<AppendRow>(
      pgQuery(APPEND_SQL, [
        streams.map((stream) => stream.aggregateType),
        streams.map((stream) => stream.aggregateId),
        streams.map((stream) => assumed.sequences.get(streamKey(stream)) ?? 0),
        commands.map((request) => request.stream.aggregateType),
        commands.map((request) => request.stream.aggregateId),
        commands.map((request) => request.commandId),
        JSON.stringify(events),
        JSON.stringify(commandRows),
        this.wakeUp,
      ], this.sql.types),
    );
    return rows;
  }
}

/** An event's columns besides its stream's, as es_append and es_append_stream read them from JSON. */
function eventRow({ sequence, event, occurredAt }: PlannedEvent) {
  const metadata = encodeMetadata(event.metadata);
  return {
    sequence,
    event_type: event.type,
    schema_version: event.schemaVersion ?? 1,
    payload: event.payload,
    metadata: metadata.extra,
    occurred_at: occurredAt.toISOString(),
    event_id: metadata.eventId,
    command_id: metadata.commandId,
    correlation_id: metadata.correlationId,
    causation_id: metadata.causationId,
    external_id: metadata.externalId,
  };
}

/** An event's columns as ONE_EVENT_APPEND_SQL takes them, in eventRow's order after the sequence. */
function oneEventColumns(planned: PlannedEvent): unknown[] {
  const row = eventRow(planned);
  return [
    row.event_type,
    row.schema_version,
    row.payload === undefined ? null : JSON.stringify(row.payload),
    row.metadata === null ? null : JSON.stringify(row.metadata),
    row.occurred_at,
    row.event_id,
    row.command_id,
    row.correlation_id,
    row.causation_id,
    row.external_id,
  ];
}

function uncheckedCommands(requests: readonly AppendRequest[], assumed: AssumedState): AppendRequest[] {
  return requests.filter(
    (request) => request.commandId !== undefined && !assumed.recorded.has(commandKey(request.stream, request.commandId)),
  );
}

/** The state `es_append` returned when the assumed one did not hold (ordinals count from 1, over what was sent). */
function actualState(
  rows: readonly AppendRow[],
  streams: readonly StreamId[],
  requests: readonly AppendRequest[],
  assumed: AssumedState,
): AssumedState {
  const sequences = new Map<string, number>();
  const recorded = new Set(assumed.recorded);
  const commands = uncheckedCommands(requests, assumed);
  for (const row of rows) {
    if (row.kind === 'stream') sequences.set(streamKey(streams[row.ord - 1]), row.value);
    else {
      const { stream, commandId } = commands[row.ord - 1];
      recorded.add(commandKey(stream, commandId as string));
    }
  }
  return { sequences, recorded };
}
