import pg from 'pg';
import { commitLoops, EVENT_COLUMNS, RAW_INSERT_COLUMNS, rawEventRow, type RawDriver } from './raw-driver.js';

/** node-postgres on the store's schema: one client for reads, a pool (as large as the store's) for commits. */
export class RawPostgres implements RawDriver {
  private readonly reader: pg.Client;
  private readonly options: string;

  constructor(
    private readonly url: string,
    schema: string,
  ) {
    this.options = `-c search_path=${schema}`;
    this.reader = new pg.Client({ connectionString: url, options: this.options });
  }

  async connect(): Promise<this> {
    await this.reader.connect();
    return this;
  }

  /** json columns are parsed by the driver's default type parser. */
  async readStream(aggregateType: string, aggregateId: string): Promise<number> {
    const { rows } = await this.reader.query({
      name: 'raw_read_stream',
      text: `SELECT ${EVENT_COLUMNS} FROM es_events WHERE aggregate_type = $1 AND aggregate_id = $2 ORDER BY sequence`,
      values: [aggregateType, aggregateId],
    });
    return rows.length;
  }

  async commitsPerSecond(callers: number, durationMs: number, connections: number): Promise<number> {
    const pool = new pg.Pool({ connectionString: this.url, options: this.options, max: connections });
    try {
      return await this.insertRows(pool, callers, durationMs);
    } finally {
      await pool.end();
    }
  }

  private async insertRows(pool: pg.Pool, callers: number, durationMs: number): Promise<number> {
    await pool.query(`CREATE TABLE IF NOT EXISTS bench_raw_events (
      position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, aggregate_type text NOT NULL, aggregate_id text NOT NULL,
      sequence integer NOT NULL, event_type text NOT NULL, schema_version integer NOT NULL, payload json NOT NULL, metadata json,
      occurred_at timestamptz NOT NULL, event_id text NOT NULL UNIQUE, command_id text, correlation_id text NOT NULL,
      causation_id text, external_id text, UNIQUE (aggregate_type, aggregate_id, sequence));
      CREATE INDEX IF NOT EXISTS bench_raw_events_correlation ON bench_raw_events (correlation_id);
      CREATE INDEX IF NOT EXISTS bench_raw_events_causation ON bench_raw_events (causation_id);`);
    const text = `INSERT INTO bench_raw_events (${RAW_INSERT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`;
    // Autocommit: every INSERT is its own transaction, committed (and flushed) before the next one of its caller.
    return commitLoops(callers, durationMs, async (aggregateId, sequence) => {
      await pool.query({ name: 'raw_insert', text, values: rawEventRow(aggregateId, sequence, new Date()) });
    });
  }

  async close(): Promise<void> {
    await this.reader.end();
  }
}
