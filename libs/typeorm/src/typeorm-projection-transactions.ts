import type { DataSource, EntityManager } from 'typeorm';
import type { HeldEvent } from '@nest-es/core/adapter';
import type { ProjectionTransactions } from '@nest-es/core/adapter';
import { dialectOf } from './sql-client.js';
import type { TypeOrmCheckpointStore } from './typeorm-checkpoint-store.js';

/**
 * Projector transactions on the store's DataSource: projectors get the transaction's
 * EntityManager. PostgreSQL gives each transaction its own pooled connection; SQLite has one
 * connection that TypeORM shares, so transactions there take turns (two open at once would nest).
 */
export class TypeOrmProjectionTransactions implements ProjectionTransactions<EntityManager> {
  private readonly serial: boolean;
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly dataSource: DataSource,
    private readonly checkpoints: TypeOrmCheckpointStore,
  ) {
    this.serial = dialectOf(dataSource) === 'sqlite';
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!this.serial) return this.dataSource.transaction(work);
    const result = this.turn.then(() => this.dataSource.transaction(work));
    this.turn = result.catch(() => undefined);
    return result;
  }

  advanceCheckpoint(manager: EntityManager, subscriber: string, from: number, to: number): Promise<boolean> {
    return this.checkpoints.advanceIn(manager, subscriber, from, to);
  }

  resetCheckpoint(manager: EntityManager, subscriber: string): Promise<void> {
    return this.checkpoints.resetIn(manager, subscriber);
  }

  holdEvent(manager: EntityManager, event: HeldEvent): Promise<void> {
    return this.checkpoints.holdIn(manager, event);
  }

  releaseEvent(manager: EntityManager, subscriber: string, position: number): Promise<boolean> {
    return this.checkpoints.releaseIn(manager, subscriber, position);
  }
}
