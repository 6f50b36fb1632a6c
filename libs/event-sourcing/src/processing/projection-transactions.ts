import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { EVENT_SOURCING_DATA_SOURCE } from '../config/tokens.js';
import { dialectOf } from '../store/typeorm/sql-client.js';

/**
 * Runs projector transactions. PostgreSQL gives each its own pooled connection; SQLite has one
 * connection that TypeORM shares, so transactions there take turns (two open at once would nest).
 */
@Injectable()
export class ProjectionTransactions {
  private readonly serial: boolean;
  private turn: Promise<unknown> = Promise.resolve();

  constructor(@Inject(EVENT_SOURCING_DATA_SOURCE) private readonly dataSource: DataSource) {
    this.serial = dialectOf(dataSource) === 'sqlite';
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!this.serial) return this.dataSource.transaction(work);
    const result = this.turn.then(() => this.dataSource.transaction(work));
    this.turn = result.catch(() => undefined);
    return result;
  }
}
