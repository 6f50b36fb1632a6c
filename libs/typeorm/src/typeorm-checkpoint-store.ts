import type { DataSource, EntityManager } from 'typeorm';
import type { CheckpointStore, HeldEvent } from '@nest-es/core/adapter';
import { numberPlaceholders } from './postgres-statements.js';
import { dialectOf, type SqlClient } from './sql-client.js';
import { sqlClientFor } from './sql-client-for.js';

export const SAVE_CHECKPOINT_SQL = `INSERT INTO es_checkpoints (subscriber, position, updated_at) VALUES (?, ?, ?)
  ON CONFLICT (subscriber) DO UPDATE SET position = excluded.position, updated_at = excluded.updated_at`;
const LOAD_SQL = 'SELECT position FROM es_checkpoints WHERE subscriber = ?';
const LOAD_ALL_SQL = 'SELECT subscriber, position FROM es_checkpoints';
const HELD_COLUMNS = 'subscriber, position, aggregate_type AS "aggregateType", aggregate_id AS "aggregateId"';
const LOAD_HELD_SQL = `SELECT ${HELD_COLUMNS} FROM es_held_events WHERE subscriber = ? ORDER BY position`;
const LOAD_ALL_HELD_SQL = `SELECT ${HELD_COLUMNS} FROM es_held_events ORDER BY subscriber, position`;

/**
 * Checkpoints on TypeORM over SQLite or PostgreSQL (tables `es_checkpoints`, `es_held_events`), and
 * their commits on the same DataSource: projectors get the transaction's EntityManager. PostgreSQL
 * gives each transaction its own pooled connection; SQLite has one connection that TypeORM shares, so
 * transactions there take turns (two open at once would nest).
 */
export class TypeOrmCheckpointStore implements CheckpointStore<EntityManager> {
  private readonly sql: SqlClient;
  private readonly serial: boolean;
  private turn: Promise<unknown> = Promise.resolve();

  constructor(private readonly dataSource: DataSource) {
    this.sql = sqlClientFor(dataSource);
    this.serial = dialectOf(dataSource) === 'sqlite';
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!this.serial) return this.dataSource.transaction(work);
    const result = this.turn.then(() => this.dataSource.transaction(work));
    this.turn = result.catch(() => undefined);
    return result;
  }

  async load(subscriber: string): Promise<number> {
    const [row] = await this.sql.all<{ position: number }>(LOAD_SQL, [subscriber]);
    return row ? Number(row.position) : 0;
  }

  async save(subscriber: string, position: number): Promise<void> {
    await this.sql.run(SAVE_CHECKPOINT_SQL, [subscriber, position, new Date()]);
  }

  async loadAll(): Promise<Map<string, number>> {
    const rows = await this.sql.all<{ subscriber: string; position: number }>(LOAD_ALL_SQL);
    return new Map(rows.map((row) => [row.subscriber, Number(row.position)]));
  }

  async loadHeld(subscriber?: string): Promise<HeldEvent[]> {
    const rows = await this.sql.all<HeldEvent>(subscriber === undefined ? LOAD_ALL_HELD_SQL : LOAD_HELD_SQL, subscriber === undefined ? [] : [subscriber]);
    return rows.map((row) => ({ ...row, position: Number(row.position) }));
  }

  /** One statement, autocommitted: no transaction to open and commit around it. A first move creates the row, in a commit. */
  async moveCheckpoint(subscriber: string, from: number, to: number): Promise<boolean> {
    if (from === 0) return this.run((manager) => this.advanceCheckpoint(manager, subscriber, from, to));
    return (await this.sql.count(ADVANCE_SQL, [to, new Date(), subscriber, from])) === 1;
  }

  /**
   * Inside a commit, so a projector's read-model writes and its checkpoint commit together: moves the
   * checkpoint from `from` to `to`. False when it is no longer at `from` (another instance ran the
   * same subscriber): the caller rolls back, so nothing is projected twice.
   */
  async advanceCheckpoint(manager: EntityManager, subscriber: string, from: number, to: number): Promise<boolean> {
    const postgres = dialectOf(this.dataSource) === 'postgres';
    const now = postgres ? new Date() : Date.now();
    const runner = manager.queryRunner!;
    if (from === 0) {
      await runner.query(dialectSql(INSERT_ZERO_SQL, postgres), [subscriber, now]);
    }
    const result = await runner.query(dialectSql(ADVANCE_SQL, postgres), [to, now, subscriber, from], true);
    return result.affected === 1;
  }

  /** Inside a projector reset: back to position 0, together with the read model's clearing. */
  async resetCheckpoint(manager: EntityManager, subscriber: string): Promise<void> {
    const postgres = dialectOf(this.dataSource) === 'postgres';
    await manager.queryRunner!.query(dialectSql(DELETE_SQL, postgres), [subscriber]);
    await manager.queryRunner!.query(dialectSql(DELETE_HELD_SQL, postgres), [subscriber]);
  }

  /** Inside a commit, with the checkpoint move past the event. */
  async holdEvent(manager: EntityManager, event: HeldEvent): Promise<void> {
    const postgres = dialectOf(this.dataSource) === 'postgres';
    await manager.queryRunner!.query(dialectSql(HOLD_SQL, postgres), [event.subscriber, event.position, event.aggregateType, event.aggregateId]);
  }

  /** Inside a commit, with the event's handling: false when it was not held (any more). */
  async releaseEvent(manager: EntityManager, subscriber: string, position: number): Promise<boolean> {
    const postgres = dialectOf(this.dataSource) === 'postgres';
    const result = await manager.queryRunner!.query(dialectSql(RELEASE_SQL, postgres), [subscriber, position], true);
    return result.affected === 1;
  }
}

const DELETE_HELD_SQL = 'DELETE FROM es_held_events WHERE subscriber = ?';
// A competing instance that held the same event first commits the same row: its checkpoint move wins, ours rolls back.
const HOLD_SQL = 'INSERT INTO es_held_events (subscriber, position, aggregate_type, aggregate_id) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING';
const RELEASE_SQL = 'DELETE FROM es_held_events WHERE subscriber = ? AND position = ?';

const DELETE_SQL = 'DELETE FROM es_checkpoints WHERE subscriber = ?';
export const INSERT_ZERO_SQL = 'INSERT INTO es_checkpoints (subscriber, position, updated_at) VALUES (?, 0, ?) ON CONFLICT (subscriber) DO NOTHING';
const ADVANCE_SQL = 'UPDATE es_checkpoints SET position = ?, updated_at = ? WHERE subscriber = ? AND position = ?';

function dialectSql(sql: string, postgres: boolean): string {
  return postgres ? numberPlaceholders(sql) : sql;
}
