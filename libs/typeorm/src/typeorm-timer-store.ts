import type { DataSource } from 'typeorm';
import type { ProcessTimer, ScheduledTimer, TimerStore } from '@nest-es/core/adapter';
import { dialectOf, type Dialect, type SqlClient } from './sql-client.js';
import { sqlClientFor } from './sql-client-for.js';

const COLUMNS = 'id, owner, correlation_id, name, due_at, payload';
/*
 * A step's timers in one statement, so one commit: the rows it writes are its new timers (pending) and
 * the instance's pending timers it cancels (cancelled), each upserted on its id. A timer of this step
 * that exists stays as it is, unless it was cancelled: a redelivered step cancels and schedules again,
 * and its own timer, cancelled by that replay (or by the replay of a later step), must come back, or
 * the process would wait forever. A timer that fired meanwhile is not cancelled.
 * Parameters, by name: owner, correlation id, the names to cancel (JSON), the timers to schedule (JSON
 * objects with id, name, due_at, payload), now; each dialect binds them in the order it names them.
 */
const CHANGE_SET = `ON CONFLICT (id) DO UPDATE SET status = excluded.status
  WHERE (es_timers.status = 'cancelled' AND excluded.status = 'pending') OR (es_timers.status = 'pending' AND excluded.status = 'cancelled')`;
const CHANGE_SQLITE = `INSERT INTO es_timers (${COLUMNS}, status, created_at)
  SELECT t.value ->> 'id', ?, ?, t.value ->> 'name', t.value ->> 'due_at', t.value ->> 'payload', 'pending', ? FROM json_each(?) t
  UNION ALL
  SELECT ${COLUMNS}, 'cancelled', created_at FROM es_timers
  WHERE owner = ? AND correlation_id = ? AND status = 'pending' AND name IN (SELECT value FROM json_each(?))
    AND id NOT IN (SELECT value ->> 'id' FROM json_each(?))
  ${CHANGE_SET}`;
const CHANGE_POSTGRES = `INSERT INTO es_timers (${COLUMNS}, status, created_at)
  SELECT t.id, $1, $2, t.name, t.due_at, t.payload, 'pending', $5 FROM json_to_recordset($4::json) AS t(id text, name text, due_at timestamptz, payload text)
  UNION ALL
  SELECT ${COLUMNS}, 'cancelled', created_at FROM es_timers
  WHERE owner = $1 AND correlation_id = $2 AND status = 'pending' AND name IN (SELECT json_array_elements_text($3::json))
    AND id NOT IN (SELECT t.id FROM json_to_recordset($4::json) AS t(id text))
  ${CHANGE_SET}`;
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
  private readonly dialect: Dialect;

  constructor(dataSource: DataSource) {
    this.sql = sqlClientFor(dataSource);
    this.dialect = dialectOf(dataSource);
  }

  async change(owner: string, correlationId: string, cancel: readonly string[], schedule: readonly ScheduledTimer[]): Promise<void> {
    const postgres = this.dialect === 'postgres';
    // One row per id: the upsert may not touch a row twice.
    const rows = [...new Map(schedule.map((timer) => [timer.id, timer])).values()].map((timer) => ({
      id: timer.id,
      name: timer.name,
      due_at: postgres ? timer.dueAt.toISOString() : timer.dueAt.getTime(),
      payload: JSON.stringify(timer.payload ?? null),
    }));
    const [names, timers, now] = [JSON.stringify(cancel), JSON.stringify(rows), new Date()];
    await (postgres
      ? this.sql.run(CHANGE_POSTGRES, [owner, correlationId, names, timers, now])
      : this.sql.run(CHANGE_SQLITE, [owner, correlationId, now, timers, owner, correlationId, names, timers]));
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
