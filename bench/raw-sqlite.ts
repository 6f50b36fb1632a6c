import Database from 'better-sqlite3';
import { commitLoops, EVENT_COLUMNS, RAW_INSERT_COLUMNS, rawEventRow, type RawDriver } from './raw-driver.js';

/** better-sqlite3 on the store's file with the store's pragmas: WAL, synchronous=FULL. */
export class RawSqlite implements RawDriver {
  private readonly db: Database.Database;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
  }

  async readStream(aggregateType: string, aggregateId: string): Promise<number> {
    const rows = this.db
      .prepare(`SELECT ${EVENT_COLUMNS} FROM es_events WHERE aggregate_type = ? AND aggregate_id = ? ORDER BY sequence`)
      .all(aggregateType, aggregateId) as { payload: string; metadata: string | null }[];
    for (const row of rows) {
      row.payload = JSON.parse(row.payload);
      if (row.metadata !== null) row.metadata = JSON.parse(row.metadata);
    }
    return rows.length;
  }

  async commitsPerSecond(callers: number, durationMs: number): Promise<number> {
    this.db.exec(`CREATE TABLE IF NOT EXISTS bench_raw_events (
      position INTEGER PRIMARY KEY AUTOINCREMENT, aggregate_type TEXT NOT NULL, aggregate_id TEXT NOT NULL, sequence INTEGER NOT NULL,
      event_type TEXT NOT NULL, schema_version INTEGER NOT NULL, payload TEXT NOT NULL, metadata TEXT, occurred_at INTEGER NOT NULL,
      event_id TEXT NOT NULL UNIQUE, command_id TEXT, correlation_id TEXT NOT NULL, causation_id TEXT, external_id TEXT,
      UNIQUE (aggregate_type, aggregate_id, sequence));
      CREATE INDEX IF NOT EXISTS bench_raw_events_correlation ON bench_raw_events (correlation_id);
      CREATE INDEX IF NOT EXISTS bench_raw_events_causation ON bench_raw_events (causation_id);`);
    const insert = this.db.prepare(`INSERT INTO bench_raw_events (${RAW_INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    // The driver is synchronous: each autocommit INSERT is one transaction and one fsync, callers take turns.
    return commitLoops(callers, durationMs, async (aggregateId, sequence) => {
      insert.run(...rawEventRow(aggregateId, sequence, Date.now()));
    });
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
