import type { DataSource } from 'typeorm';
import type { StoredEvent, StreamId } from '@nest-es/core';
import type {
  AppendRequest,
  AppendResult,
  CommandRecord,
  EventPage,
  LoadedStream,
  LoadStreamOptions,
  ReadAllOptions,
  ReadPartitionOptions,
  ReadStreamOptions,
  StreamIdsOptions,
  StreamLoads,
} from '@nest-es/core/adapter';
import type { EventStore } from '@nest-es/core';
import { assertStorable } from '@nest-es/core/internal';
import { ConcurrencyError, DuplicateCommandError, DuplicateExternalIdError } from '@nest-es/core/adapter';
import { MAX_SEQUENCE } from '@nest-es/core/internal';
import { decodeEvent, EVENT_COLUMNS, STREAM_SEQUENCE_SQL, type EventRow } from './event-codec.js';
import { GroupCommit, type AppendFault, type AppendWriter } from './group-commit.js';
import { PostgresAppendWriter } from './postgres-event-store.js';
import { ensureSchema } from './schema/migrate.js';
import type { SqlClient } from './sql-client.js';
import { sqlClientFor } from './sql-client-for.js';
import { SqliteSqlClient } from './sqlite-sql-client.js';
import { SqliteAppendWriter } from './sqlite-event-store.js';
import { loadStream } from './stream-load.js';

export interface TypeOrmEventStoreOptions {
  /** Most appends committed in one transaction (default 256). */
  maxBatchSize?: number;
}

const READ_STREAM_SQL = `SELECT ${EVENT_COLUMNS} FROM es_events
  WHERE aggregate_type = ? AND aggregate_id = ? AND sequence > ? AND sequence <= ? ORDER BY sequence`;
const READ_ALL_SQL = `SELECT ${EVENT_COLUMNS} FROM es_events WHERE position > ? ORDER BY position LIMIT ?`;
/**
 * One partition's page and the head, in one statement so both come from one snapshot: when the page
 * is not full, every event up to that head was either read or is not asked for. The partition is the
 * floor-mod of the hash stored with each event (migration 8); a row without one (a writer that
 * bypassed the store) is read by every partition and sorted out by the reader. `types` placeholders
 * for the event types asked for (none asked for: no type filter).
 */
function readPartitionSql(partitioned: boolean, types: number | undefined): string {
  const typeFilter = types === undefined ? '' : types === 0 ? 'AND 1 = 0' : `AND event_type IN (${Array(types).fill('?').join(', ')})`;
  return `SELECT head.head, page.* FROM (SELECT coalesce(max(position), 0) AS head FROM es_events) head
  LEFT JOIN (SELECT ${EVENT_COLUMNS} FROM es_events WHERE position > ? AND position <= ?
    ${partitioned ? 'AND (aggregate_hash IS NULL OR ((aggregate_hash % ?) + ?) % ? = ?)' : ''} ${typeFilter}
    ORDER BY position LIMIT ?) page ON true
  ORDER BY page.position`;
}
/**
 * Positions one statement of a partition read scans at most: a filter that matches little (a rare
 * event type) over a long log takes several short statements, none near the statement timeout.
 */
export const PARTITION_SCAN_WINDOW = 100_000;
/**
 * The first statement of a partition read scans this many positions per event asked for, and each
 * next one eight times more, up to PARTITION_SCAN_WINDOW: a dense read (every event, or one of a few
 * partitions) fills its page from the first window, a sparse one reaches full windows in two steps.
 * A window near the page's size also bounds a misjudged plan: with statistics that lag a bulk load,
 * PostgreSQL reads and sorts the whole window instead of walking the position index to the limit
 * (measured: 30 ms instead of 1 ms for a page of 1,000 over a 100,000-position window).
 */
const FIRST_WINDOW_PER_EVENT = 8;
const WINDOW_GROWTH = 8;
const READ_BY_CORRELATION_SQL = `SELECT ${EVENT_COLUMNS} FROM es_events
  WHERE correlation_id = ? AND position > ? ORDER BY position LIMIT ?`;
/**
 * A loose index scan: one index seek per distinct id (each step finds the next id above the last),
 * so a page costs `limit` seeks however many events each aggregate has; a DISTINCT would read them all.
 */
const STREAM_IDS_SQL = `WITH RECURSIVE ids(aggregate_id, n) AS (
    SELECT (SELECT aggregate_id FROM es_events WHERE aggregate_type = ? AND aggregate_id > ? ORDER BY aggregate_id LIMIT 1), 1
    UNION ALL
    SELECT (SELECT e.aggregate_id FROM es_events e WHERE e.aggregate_type = ? AND e.aggregate_id > ids.aggregate_id
            ORDER BY e.aggregate_id LIMIT 1), n + 1
    FROM ids WHERE ids.aggregate_id IS NOT NULL AND n < ?
  )
  SELECT aggregate_id FROM ids WHERE aggregate_id IS NOT NULL ORDER BY n`;
const HEAD_POSITION_SQL = 'SELECT coalesce(max(position), 0) AS head FROM es_events';
const FIND_COMMAND_SQL = `SELECT sequence_before, sequence_after, fingerprint FROM es_commands
  WHERE aggregate_type = ? AND aggregate_id = ? AND command_id = ?`;
const FIND_BY_EXTERNAL_ID_SQL = `SELECT ${EVENT_COLUMNS} FROM es_events
  WHERE aggregate_type = ? AND aggregate_id = ? AND external_id = ?`;

/** A row of the partition read: the head, and an event's columns (all null when the page is empty). */
type PageRow = EventRow & { head: number };

/**
 * The event store on TypeORM over SQLite (better-sqlite3) or PostgreSQL. Reads are shared SQL; the
 * appends of each database are in `sqlite-event-store.ts` and `postgres-event-store.ts`, batched by
 * group commit (`group-commit.ts`).
 */
export class TypeOrmEventStore implements EventStore, StreamLoads {
  private readonly commits: GroupCommit;

  private constructor(
    private readonly sql: SqlClient,
    private readonly writer: AppendWriter,
    maxBatchSize: number,
  ) {
    this.commits = new GroupCommit(writer, (fault, request, error) => this.explain(fault, request, error), maxBatchSize);
  }

  /**
   * A store on an initialized DataSource. Brings the schema up to date first (`ensureSchema`: idempotent,
   * once per DataSource), so callers need not.
   */
  static async create(dataSource: DataSource, options: TypeOrmEventStoreOptions = {}): Promise<TypeOrmEventStore> {
    const maxBatchSize = options.maxBatchSize ?? 256;
    if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1) {
      throw new RangeError(`maxBatchSize must be a positive integer, got ${maxBatchSize}`);
    }
    await ensureSchema(dataSource);
    const sql = sqlClientFor(dataSource);
    const writer = sql instanceof SqliteSqlClient ? new SqliteAppendWriter(await sql.connection()) : new PostgresAppendWriter(sql);
    return new TypeOrmEventStore(sql, writer, maxBatchSize);
  }

  /**
   * On PostgreSQL, has every committed batch of appends NOTIFY the schema's wake-up channel with
   * `payload`, from its own transaction: announcing costs no round trip (the PostgreSQL wake channel
   * sets this). SQLite has no channel: one process.
   */
  announceAppends(payload: string): void {
    if (this.writer instanceof PostgresAppendWriter) this.writer.wakeUp = payload;
  }

  async append(request: AppendRequest): Promise<AppendResult> {
    // Checked before the batch: a value the database cannot hold fails this append alone, with a coded error.
    for (const event of request.events) {
      assertStorable(event.payload, event.type);
      assertStorable(event.metadata, `${event.type} metadata`);
    }
    return this.commits.append(request);
  }

  async readStream(stream: StreamId, options: ReadStreamOptions = {}): Promise<StoredEvent[]> {
    const { afterSequence = 0, toSequence = MAX_SEQUENCE } = options;
    const rows = await this.sql.all<EventRow>(READ_STREAM_SQL, [
      stream.aggregateType,
      stream.aggregateId,
      afterSequence,
      toSequence,
    ]);
    return rows.map(decodeEvent);
  }

  /** The newest usable snapshot in es_snapshots (where TypeOrmSnapshotStore keeps them) and the events after it, in one statement. */
  loadStream(stream: StreamId, options: LoadStreamOptions): Promise<LoadedStream> {
    return loadStream(this.sql, stream, options);
  }

  async streamIds(aggregateType: string, options: StreamIdsOptions = {}): Promise<string[]> {
    const { afterId = '', limit = 1000 } = options;
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`streamIds limit must be a positive integer, got ${limit}`);
    const rows = await this.sql.all<{ aggregate_id: string }>(STREAM_IDS_SQL, [aggregateType, afterId, aggregateType, limit]);
    return rows.map((row) => row.aggregate_id);
  }

  async streamSequence(stream: StreamId): Promise<number> {
    const [row] = await this.sql.all<{ sequence: number }>(STREAM_SEQUENCE_SQL, [stream.aggregateType, stream.aggregateId]);
    return row?.sequence ?? 0;
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    const { afterPosition = 0, limit = 1000 } = options;
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`readAll limit must be a positive integer, got ${limit}`);
    const rows = await this.sql.all<EventRow>(READ_ALL_SQL, [afterPosition, limit]);
    return rows.map(decodeEvent);
  }

  async readPartition(options: ReadPartitionOptions): Promise<EventPage> {
    const { afterPosition = 0, limit = 1000, partition, types } = options;
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`readPartition limit must be a positive integer, got ${limit}`);
    const { index, count } = partition;
    const partitioned = count > 1;
    const sql = readPartitionSql(partitioned, types?.length);
    const filters = [...(partitioned ? [count, count, count, index] : []), ...(types ?? [])];
    const events: StoredEvent[] = [];
    // Window by window: each statement's rows are complete up to its end or its head (its snapshot sees a prefix of the log).
    let window = Math.min(limit * FIRST_WINDOW_PER_EVENT, PARTITION_SCAN_WINDOW);
    for (let from = afterPosition; ; from += window, window = Math.min(window * WINDOW_GROWTH, PARTITION_SCAN_WINDOW)) {
      const to = from + window;
      const rows = await this.sql.all<PageRow>(sql, [from, to, ...filters, limit - events.length]);
      if (rows[0].position !== null) events.push(...rows.map(decodeEvent));
      if (events.length === limit) return { events, scannedTo: events[limit - 1].position };
      if (rows[0].head <= to) return { events, scannedTo: Math.max(afterPosition, rows[0].head) };
    }
  }

  async readByCorrelation(correlationId: string, options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    const { afterPosition = 0, limit = 10_000 } = options;
    const rows = await this.sql.all<EventRow>(READ_BY_CORRELATION_SQL, [correlationId, afterPosition, limit]);
    return rows.map(decodeEvent);
  }

  async headPosition(): Promise<number> {
    const [row] = await this.sql.all<{ head: number }>(HEAD_POSITION_SQL);
    return row.head;
  }

  async findCommand(stream: StreamId, commandId: string): Promise<CommandRecord | null> {
    const [row] = await this.sql.all<{ sequence_before: number; sequence_after: number; fingerprint: string | null }>(FIND_COMMAND_SQL, [
      stream.aggregateType,
      stream.aggregateId,
      commandId,
    ]);
    if (row === undefined) return null;
    const events =
      row.sequence_after === row.sequence_before
        ? []
        : await this.readStream(stream, { afterSequence: row.sequence_before, toSequence: row.sequence_after });
    return { commandId, stream, sequence: row.sequence_after, events, fingerprint: row.fingerprint };
  }

  async findByExternalId(stream: StreamId, externalId: string): Promise<StoredEvent | null> {
    const [row] = await this.sql.all<EventRow>(FIND_BY_EXTERNAL_ID_SQL, [stream.aggregateType, stream.aggregateId, externalId]);
    return row === undefined ? null : decodeEvent(row);
  }

  /** The error for an append that failed alone in its transaction (see GroupCommit). */
  private async explain(fault: AppendFault, request: AppendRequest, error: unknown): Promise<unknown> {
    const { stream } = request;
    switch (fault) {
      case 'sequence':
        return new ConcurrencyError(stream, request.expectedSequence, await this.streamSequence(stream));
      case 'command':
        return new DuplicateCommandError(stream, request.commandId ?? '');
      case 'externalId': {
        const ids = request.events.flatMap((event) => event.metadata.externalId ?? []);
        for (const id of ids) {
          if ((await this.findByExternalId(stream, id)) !== null) return new DuplicateExternalIdError(stream, id);
        }
        // Not stored yet: the request itself repeats an external id.
        return new DuplicateExternalIdError(stream, ids.find((id, index) => ids.indexOf(id) !== index) ?? ids[0]);
      }
      case 'request':
        return error;
    }
  }
}
