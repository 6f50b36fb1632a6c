import type { DataSource } from 'typeorm';
import type { ProcessTimer, TimerStore } from '@nest-es/core/adapter';
import type { SqlClient } from './sql-client.js';
import { sqlClientFor } from './sql-client-for.js';

const COLUMNS = 'id, owner, correlation_id, name, due_at, payload';
// A redelivered process step cancels and schedules again: its own timer, cancelled by that replay
// (or by the replay of a later step), must come back, or the process would wait forever.
const SCHEDULE_SQL = `INSERT INTO es_timers (${COLUMNS}, status, created_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?)
  ON CONFLICT (id) DO UPDATE SET status = 'pending' WHERE es_timers.status = 'cancelled'`;
const CANCEL_SQL = `UPDATE es_timers SET status = 'cancelled' WHERE owner = ? AND correlation_id = ? AND name = ? AND status = 'pending'`;
const DUE_SQL = `SELECT ${COLUMNS} FROM es_timers WHERE status = 'pending' AND due_at <= ? ORDER BY due_at, id LIMIT ?`;
const FIRED_SQL = `UPDATE es_timers SET status = 'fired' WHERE id = ? AND status = 'pending'`;
const PENDING_SQL = `SELECT ${COLUMNS} FROM es_timers WHERE owner = ? AND correlation_id = ? AND status = 'pending' ORDER BY due_at, id`;

interface TimerRow {
  id: string;
  owner: string;
  correlation_id: string;
  name: string;
  due_at: number | Date;
  payload: string;
}

/** Process-manager timers on TypeORM over SQLite or PostgreSQL (table `es_timers`). */
export class TypeOrmTimerStore implements TimerStore {
  private readonly sql: SqlClient;

  constructor(dataSource: DataSource) {
    this.sql = sqlClientFor(dataSource);
  }

  async schedule(timer: ProcessTimer): Promise<void> {
    await this.sql.run(SCHEDULE_SQL, [
      timer.id,
      timer.owner,
      timer.correlationId,
      timer.name,
      timer.dueAt,
      JSON.stringify(timer.payload ?? null),
      new Date(),
    ]);
  }

  cancel(owner: string, correlationId: string, name: string): Promise<number> {
    return this.sql.count(CANCEL_SQL, [owner, correlationId, name]);
  }

  async due(now: Date, limit: number): Promise<ProcessTimer[]> {
    return (await this.sql.all<TimerRow>(DUE_SQL, [now, limit])).map(decode);
  }

  async markFired(id: string): Promise<boolean> {
    return (await this.sql.count(FIRED_SQL, [id])) === 1;
  }

  async pending(owner: string, correlationId: string): Promise<ProcessTimer[]> {
    return (await this.sql.all<TimerRow>(PENDING_SQL, [owner, correlationId])).map(decode);
  }
}

function decode(row: TimerRow): ProcessTimer {
  return {
    id: row.id,
    owner: row.owner,
    correlationId: row.correlation_id,
    name: row.name,
    dueAt: row.due_at instanceof Date ? row.due_at : new Date(row.due_at),
    payload: JSON.parse(row.payload),
  };
}
