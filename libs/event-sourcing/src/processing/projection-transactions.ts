import type { DataSource, EntityManager } from 'typeorm';
import { dialectOf } from '../store/typeorm/sql-client.js';

/**
 * Runs projector transactions. PostgreSQL gives each its own pooled connection; SQLite has one
 * connection that TypeORM shares, so transactions there take turns (two open at once would nest).
 */
export class ProjectionTransactions {
  private readonly serial: boolean;
  private turn: Promise<unknown> = Promise.resolve();

  constructor(private readonly dataSource: DataSource) {
    this.serial = dialectOf(dataSource) === 'sqlite';
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!this.serial) return this.dataSource.transaction(work);
    const result = this.turn.then(() => this.dataSource.transaction(work));
    this.turn = result.catch(() => undefined);
    return result;
  }
}
