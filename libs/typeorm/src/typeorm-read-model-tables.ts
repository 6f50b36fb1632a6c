import type { DataSource, EntityManager } from 'typeorm';
import type { ReadModelTables } from '@nest-es/core/adapter';
import { numberPlaceholders } from './postgres-statements.js';
import { dialectOf } from './sql-client.js';
import { INSERT_ZERO_SQL } from './typeorm-checkpoint-store.js';

const SQLITE_EXISTING = 'SELECT name FROM sqlite_master WHERE type = \'table\' AND name = ?';
const POSTGRES_EXISTING = 'SELECT to_regclass(quote_ident($1)) IS NOT NULL AS found';
const MOVE_CHECKPOINT = [
  'DELETE FROM es_checkpoints WHERE subscriber = ?',
  'DELETE FROM es_held_events WHERE subscriber = ?',
  'UPDATE es_checkpoints SET subscriber = ? WHERE subscriber = ?',
  'UPDATE es_held_events SET subscriber = ? WHERE subscriber = ?',
  INSERT_ZERO_SQL,
];

/**
 * The table steps of a blue/green rebuild on the read models' DataSource, in the projector's
 * transaction. SQLite and PostgreSQL both rename and drop tables transactionally, so a switch is
 * atomic for every other connection. On SQLite the one connection also serves the app's readers;
 * better-sqlite3 answers synchronously, so the switch's statements run back to back and a read
 * begun by another request cannot land between them. The names are the projector's declared ones
 * (checked at boot: lower-case letters, digits, _).
 */
export class TypeOrmReadModelTables implements ReadModelTables<EntityManager> {
  private readonly onPostgres: boolean;

  constructor(dataSource: DataSource) {
    this.onPostgres = dialectOf(dataSource) === 'postgres';
  }

  async missing(manager: EntityManager, tables: readonly string[]): Promise<string[]> {
    const missing: string[] = [];
    for (const table of tables) if (!(await this.exists(manager, table))) missing.push(table);
    return missing;
  }

  async drop(manager: EntityManager, tables: readonly string[]): Promise<void> {
    for (const table of tables) await manager.query(`DROP TABLE IF EXISTS "${table}"`);
  }

  async rename(manager: EntityManager, from: string, to: string): Promise<void> {
    await manager.query(`ALTER TABLE "${from}" RENAME TO "${to}"`);
  }

  async moveCheckpoint(manager: EntityManager, from: string, to: string): Promise<void> {
    const [dropCheckpoint, dropHeld, moveCheckpoint, moveHeld, atZero] = MOVE_CHECKPOINT.map((sql) => (this.onPostgres ? numberPlaceholders(sql) : sql));
    await manager.query(dropCheckpoint, [to]);
    await manager.query(dropHeld, [to]);
    await manager.query(moveCheckpoint, [to, from]);
    await manager.query(moveHeld, [to, from]);
    // A subscriber that never committed has no row (it is at 0); `to` gets one all the same.
    await manager.query(atZero, [to, this.onPostgres ? new Date() : Date.now()]);
  }

  private async exists(manager: EntityManager, table: string): Promise<boolean> {
    if (!this.onPostgres) return (await manager.query(SQLITE_EXISTING, [table])).length > 0;
    const [row] = (await manager.query(POSTGRES_EXISTING, [table])) as Array<{ found: boolean }>;
    return row.found;
  }
}
