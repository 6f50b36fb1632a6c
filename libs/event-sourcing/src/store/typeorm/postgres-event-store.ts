import type pg from 'pg';
import type { StreamId } from '../event-envelope.js';
import type { AppendRequest } from '../event-store.js';
import { AppendPlan, commandKey, streamKey, type AppendOutcome } from './append-plan.js';
import { encodeMetadata } from './event-codec.js';
import type { AppendFault, AppendWriter } from './group-commit.js';
import { pgQuery } from './sql-client.js';

/**
 * Taken by every appending transaction before it reads the streams or takes a position, held until it
 * commits. The gap problem: with concurrent writers, a transaction can take position 10, another take
 * 11 and commit first, and a reader that saw 11 would move past 10 forever. Holding this lock from
 * before the positions are taken until COMMIT makes transactions take positions in commit order, so
 * what a reader sees is always a prefix of the log (rolled-back positions leave gaps nobody fills).
 * Chosen over a transaction-id watermark because it needs nothing on the read side (readAll stays a
 * plain range scan) and cannot be fooled by positions taken out of xid order, which defeats a bare
 * `xid < pg_snapshot_xmin` filter; its cost, one appending transaction at a time per schema, is
 * amortized by group commit. It also serializes the sequence checks across processes, so the
 * unique indexes fire only for writers that bypass this store.
 * The key is per schema, so stores in different schemas of one database do not wait on each other.
 */
export const APPEND_LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtextextended('es_events:' || current_schema(), 0))`;

/** The current sequence of each stream of the batch, and which of its command ids are recorded. */
const STATE_SQL = `
  SELECT 'stream' AS kind, s.ord,
    coalesce((SELECT e.sequence FROM es_events e
              WHERE e.aggregate_type = s.aggregate_type AND e.aggregate_id = s.aggregate_id
              ORDER BY e.sequence DESC LIMIT 1), 0) AS sequence
  FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS s(aggregate_type, aggregate_id, ord)
  UNION ALL
  SELECT 'command', c.ord, 0
  FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS c(aggregate_type, aggregate_id, command_id, ord)
  WHERE EXISTS (SELECT 1 FROM es_commands x
                WHERE x.aggregate_type = c.aggregate_type AND x.aggregate_id = c.aggregate_id AND x.command_id = c.command_id)`;

/** Every event and command row of the batch in one statement: one round trip whatever the batch size. */
const INSERT_SQL = `
  WITH inserted AS (
    INSERT INTO es_events (aggregate_type, aggregate_id, sequence, event_type, schema_version, payload, metadata,
      occurred_at, event_id, command_id, correlation_id, causation_id, external_id)
    SELECT aggregate_type, aggregate_id, sequence, event_type, schema_version, coalesce(payload, 'null'::json), metadata,
      occurred_at, event_id, command_id, correlation_id, causation_id, external_id
    FROM json_to_recordset($1::json) AS r(aggregate_type text, aggregate_id text, sequence integer, event_type text,
      schema_version integer, payload json, metadata json, occurred_at timestamptz, event_id text, command_id text,
      correlation_id text, causation_id text, external_id text)
    RETURNING position
  ), commands AS (
    INSERT INTO es_commands (aggregate_type, aggregate_id, command_id, sequence_before, sequence_after, created_at)
    SELECT aggregate_type, aggregate_id, command_id, sequence_before, sequence_after, now()
    FROM json_to_recordset($2::json) AS c(aggregate_type text, aggregate_id text, command_id text,
      sequence_before integer, sequence_after integer)
  )
  SELECT position FROM inserted`;

/**
 * PostgreSQL appends: a batch is one transaction of four round trips (BEGIN + lock, read state,
 * insert everything, COMMIT) on a client of TypeORM's pool.
 */
export class PostgresAppendWriter implements AppendWriter {
  constructor(private readonly pool: pg.Pool) {}

  async write(requests: readonly AppendRequest[]): Promise<AppendOutcome[]> {
    const client = await this.pool.connect();
    let discard: Error | undefined;
    try {
      await client.query(`BEGIN; ${APPEND_LOCK_SQL}`);
      const plan = await this.plan(client, requests);
      const positions = plan.events.length === 0 && plan.commands.length === 0 ? [] : await this.insert(client, plan);
      await client.query('COMMIT');
      return plan.outcomes(positions);
    } catch (error) {
      // A client that cannot even roll back has lost its connection: discard it, do not pool it.
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        discard = rollbackError;
      });
      throw error;
    } finally {
      client.release(discard);
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

  private async plan(client: pg.PoolClient, requests: readonly AppendRequest[]): Promise<AppendPlan> {
    const streams = new Map<string, StreamId>();
    for (const { stream } of requests) streams.set(streamKey(stream), stream);
    const streamList = [...streams.values()];
    const commands = requests.filter((request) => request.commandId !== undefined);
    const { rows } = await client.query<{ kind: 'stream' | 'command'; ord: number; sequence: number }>(
      pgQuery(STATE_SQL, [
        streamList.map((stream) => stream.aggregateType),
        streamList.map((stream) => stream.aggregateId),
        commands.map((request) => request.stream.aggregateType),
        commands.map((request) => request.stream.aggregateId),
        commands.map((request) => request.commandId),
      ]),
    );
    const sequences = new Map<string, number>();
    const recorded = new Set<string>();
    for (const row of rows) {
      if (row.kind === 'stream') sequences.set(streamKey(streamList[row.ord - 1]), row.sequence);
      else {
        const { stream, commandId } = commands[row.ord - 1];
        recorded.add(commandKey(stream, commandId as string));
      }
    }
    return new AppendPlan(requests, {
      sequence: (stream) => sequences.get(streamKey(stream)) ?? 0,
      commandRecorded: (stream, commandId) => recorded.has(commandKey(stream, commandId)),
    });
  }

  private async insert(client: pg.PoolClient, plan: AppendPlan): Promise<number[]> {
    const events = plan.events.map(({ stream, sequence, event, occurredAt }) => {
      const metadata = encodeMetadata(event.metadata);
      return {
        aggregate_type: stream.aggregateType,
        aggregate_id: stream.aggregateId,
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
    });
    const commands = plan.commands.map((command) => ({
      aggregate_type: command.stream.aggregateType,
      aggregate_id: command.stream.aggregateId,
      command_id: command.commandId,
      sequence_before: command.sequenceBefore,
      sequence_after: command.sequenceAfter,
    }));
    const { rows } = await client.query<{ position: number }>(
      pgQuery(INSERT_SQL, [JSON.stringify(events), JSON.stringify(commands)]),
    );
    // Rows take positions in the order json_to_recordset yields them, the plan's order.
    return rows.map((row) => row.position).sort((a, b) => a - b);
  }
}
