import type BetterSqlite3 from 'better-sqlite3';
import { stringHashCode } from '@nest-es/core/internal';
import type { AppendRequest } from '@nest-es/core/adapter';
import { AppendPlan, type AppendOutcome } from './append-plan.js';
import { encodeMetadata, STREAM_SEQUENCE_SQL } from './event-codec.js';
import type { AppendFault, AppendWriter } from './group-commit.js';
import { idleConnection } from './sqlite-sql-client.js';
import { outwaitLock } from './sqlite-lock.js';

/**
 * SQLite appends: a batch is one synchronous `BEGIN IMMEDIATE` transaction on cached prepared
 * statements. IMMEDIATE makes it the only writer of the file (another process's lock is waited
 * out, see outwaitLock) before it reads the streams' sequences, so the checks cannot go stale; positions
 * (AUTOINCREMENT) are therefore assigned in commit order and readers never skip one.
 */
export class SqliteAppendWriter implements AppendWriter {
  private readonly selectSequence: BetterSqlite3.Statement;
  private readonly selectCommand: BetterSqlite3.Statement;
  private readonly insertEvent: BetterSqlite3.Statement;
  private readonly insertCommand: BetterSqlite3.Statement;
  private readonly transaction: BetterSqlite3.Transaction<(requests: readonly AppendRequest[]) => AppendOutcome[]>;

  constructor(private readonly db: BetterSqlite3.Database) {
    this.selectSequence = db.prepare(STREAM_SEQUENCE_SQL).pluck();
    this.selectCommand = db
      .prepare('SELECT 1 FROM es_commands WHERE aggregate_type = ? AND aggregate_id = ? AND command_id = ?')
      .pluck();
    this.insertEvent = db.prepare(
      `INSERT INTO es_events (aggregate_type, aggregate_id, aggregate_hash, sequence, event_type, schema_version, payload, metadata,
        occurred_at, event_id, command_id, correlation_id, causation_id, external_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertCommand = db.prepare(
      `INSERT INTO es_commands (aggregate_type, aggregate_id, command_id, sequence_before, sequence_after, created_at, fingerprint)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.transaction = db.transaction((requests: readonly AppendRequest[]) => this.writeInTransaction(requests));
  }

  /** Another process's write lock is waited out with the event loop free; past SQLITE_LOCK_WAIT_MS it is SQLITE_BUSY (503). */
  write(requests: readonly AppendRequest[]): Promise<AppendOutcome[]> {
    return outwaitLock(async () => {
      await idleConnection(this.db);
      return this.transaction.immediate(requests);
    });
  }

  faultOf(error: unknown): AppendFault | null {
    // JSON.stringify of a BigInt or a cycle, or a value the driver cannot bind.
    if (error instanceof TypeError || error instanceof RangeError) return 'request';
    const { code, message } = error as { code?: unknown; message?: string };
    if (typeof code !== 'string' || !code.startsWith('SQLITE_CONSTRAINT')) return null;
    if (message?.endsWith('es_events.sequence')) return 'sequence';
    if (message?.includes('es_commands.')) return 'command';
    if (message?.endsWith('es_events.external_id')) return 'externalId';
    return 'request';
  }

  private writeInTransaction(requests: readonly AppendRequest[]): AppendOutcome[] {
    const plan = new AppendPlan(requests, {
      sequence: (stream) => (this.selectSequence.get(stream.aggregateType, stream.aggregateId) as number | undefined) ?? 0,
      commandRecorded: (stream, commandId) =>
        this.selectCommand.get(stream.aggregateType, stream.aggregateId, commandId) !== undefined,
    });
    const positions = plan.events.map(({ stream, sequence, event, occurredAt }) => {
      const metadata = encodeMetadata(event.metadata);
      const { lastInsertRowid } = this.insertEvent.run(
        stream.aggregateType,
        stream.aggregateId,
        stringHashCode(stream.aggregateId),
        sequence,
        event.type,
        event.schemaVersion ?? 1,
        JSON.stringify(event.payload ?? null),
        metadata.extra === null ? null : JSON.stringify(metadata.extra),
        occurredAt.getTime(),
        metadata.eventId,
        metadata.commandId,
        metadata.correlationId,
        metadata.causationId,
        metadata.externalId,
      );
      return Number(lastInsertRowid);
    });
    const now = Date.now();
    for (const command of plan.commands) {
      this.insertCommand.run(
        command.stream.aggregateType,
        command.stream.aggregateId,
        command.commandId,
        command.sequenceBefore,
        command.sequenceAfter,
        now,
        command.fingerprint,
      );
    }
    return plan.outcomes(positions);
  }
}
