import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { DeadLetter, DeadLetterKind, DeadLetterStatus } from '@nest-es/core';
import type { DeadLetterQuery, DeadLetterStore, NewDeadLetter } from '@nest-es/core/adapter';
import type { SqlClient } from './sql-client.js';
import { sqlClientFor } from './sql-client-for.js';

const COLUMNS = 'id, kind, subscriber, aggregate_type, aggregate_id, message_type, payload, context, reason, attempts, status, created_at, updated_at';
const INSERT_SQL = `INSERT INTO es_dead_letters (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const GET_SQL = `SELECT ${COLUMNS} FROM es_dead_letters WHERE id = ?`;
const RESOLVE_SQL = `UPDATE es_dead_letters SET status = ?, reason = ?, updated_at = ? WHERE id = ? AND status = 'pending'`;

interface DeadLetterRow {
  id: string;
  kind: DeadLetterKind;
  subscriber: string | null;
  aggregate_type: string;
  aggregate_id: string;
  message_type: string;
  payload: string;
  context: string;
  reason: string;
  attempts: number;
  status: DeadLetterStatus;
  created_at: number | Date;
  updated_at: number | Date;
}

/** Dead letters on TypeORM over SQLite or PostgreSQL (table `es_dead_letters`). */
export class TypeOrmDeadLetterStore implements DeadLetterStore {
  private readonly sql: SqlClient;

  /** On an initialized DataSource whose schema is up to date (as `openDataSource` leaves it). */
  constructor(dataSource: DataSource) {
    this.sql = sqlClientFor(dataSource);
  }

  async add(entry: NewDeadLetter): Promise<DeadLetter> {
    const now = new Date();
    const letter: DeadLetter = { ...entry, id: randomUUID(), status: 'pending', createdAt: now, updatedAt: now };
    await this.sql.run(INSERT_SQL, [
      letter.id,
      letter.kind,
      letter.subscriber,
      letter.aggregateType,
      letter.aggregateId,
      letter.messageType,
      JSON.stringify(letter.payload ?? null),
      JSON.stringify(letter.context),
      letter.reason,
      letter.attempts,
      letter.status,
      now,
      now,
    ]);
    return letter;
  }

  async list(query: DeadLetterQuery = {}): Promise<DeadLetter[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    for (const [column, value] of [
      ['status', query.status],
      ['kind', query.kind],
      ['subscriber', query.subscriber],
      ['aggregate_type', query.aggregateType],
      ['aggregate_id', query.aggregateId],
    ] as const) {
      if (value === undefined) continue;
      where.push(`${column} = ?`);
      params.push(value);
    }
    if (query.after) {
      where.push('(created_at > ? OR (created_at = ? AND id > ?))');
      params.push(query.after.createdAt, query.after.createdAt, query.after.id);
    }
    if (query.limit !== undefined) params.push(query.limit);
    const rows = await this.sql.all<DeadLetterRow>(
      `SELECT ${COLUMNS} FROM es_dead_letters ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at, id${query.limit !== undefined ? ' LIMIT ?' : ''}`,
      params,
    );
    return rows.map(decode);
  }

  async get(id: string): Promise<DeadLetter | null> {
    const [row] = await this.sql.all<DeadLetterRow>(GET_SQL, [id]);
    return row ? decode(row) : null;
  }

  async resolve(id: string, status: Exclude<DeadLetterStatus, 'pending'>, reason?: string): Promise<boolean> {
    const current = await this.get(id);
    if (!current) return false;
    // The status guard makes two resolvers (two instances, two clicks) race safely: one wins.
    return (await this.sql.count(RESOLVE_SQL, [status, reason ?? current.reason, new Date(), id])) === 1;
  }
}

function decode(row: DeadLetterRow): DeadLetter {
  return {
    id: row.id,
    kind: row.kind,
    subscriber: row.subscriber,
    aggregateType: row.aggregate_type,
    aggregateId: row.aggregate_id,
    messageType: row.message_type,
    payload: JSON.parse(row.payload),
    context: JSON.parse(row.context),
    reason: row.reason,
    attempts: row.attempts,
    status: row.status,
    createdAt: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
    updatedAt: row.updated_at instanceof Date ? row.updated_at : new Date(row.updated_at),
  };
}
