import type { InjectionToken } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AdapterContext, AdapterPorts } from '@nest-es/core/adapter';
import type { EventSourcingAdapter } from '@nest-es/core';
import type { StoreOptions, TypeOrmAdapterOptions } from './adapter-options.js';
import { openDataSource } from './open-data-source.js';
import { PostgresPartitionLeases } from './postgres-partition-leases.js';
import { TypeOrmReadModelTables } from './typeorm-read-model-tables.js';
import { PostgresWakeChannel } from './postgres-wake-channel.js';
import { openReadModelDataSource } from './read-model-store.js';
import { PostgresSqlClient } from './postgres-sql-client.js';
import { sqlClientFor } from './sql-client-for.js';
import { dialectOf } from './sql-client.js';
import { EVENT_SOURCING_DATA_SOURCE, READ_MODEL_DATA_SOURCE } from './tokens.js';
import { TypeOrmCheckpointStore } from './typeorm-checkpoint-store.js';
import { TypeOrmDeadLetterStore } from './typeorm-dead-letter-store.js';
import { TypeOrmEventStore } from './typeorm-event-store.js';
import { TypeOrmSnapshotStore } from './typeorm-snapshot-store.js';
import { TypeOrmTimerStore } from './typeorm-timer-store.js';

/**
 * The event store on PostgreSQL or SQLite through TypeORM:
 * `EventSourcingModule.forRoot({adapter: typeorm({type: 'sqlite', database: 'app.sqlite'})})`.
 * Projectors receive an `EntityManager` in their transaction.
 */
export function typeorm(options: TypeOrmAdapterOptions): EventSourcingAdapter<EntityManager> {
  return new TypeOrmAdapter(options);
}

class TypeOrmAdapter implements EventSourcingAdapter<EntityManager> {
  readonly name = 'typeorm';
  readonly provides = [EVENT_SOURCING_DATA_SOURCE, READ_MODEL_DATA_SOURCE];
  private store?: StoreOptions;
  private dataSource?: DataSource;
  private readModels?: DataSource;

  readonly requires: readonly InjectionToken[];

  constructor(private readonly options: TypeOrmAdapterOptions) {
    const given = 'dataSource' in options ? options.dataSource : undefined;
    this.requires = given === undefined || given instanceof DataSource ? [] : [given as InjectionToken];
  }

  async open(context: AdapterContext): Promise<AdapterPorts<EntityManager>> {
    this.store = this.storeOptions(context);
    this.dataSource = await openDataSource(this.store);
    this.readModels = await openReadModelDataSource(this.dataSource, this.store, this.options.readModels);
    const events = await TypeOrmEventStore.create(this.dataSource);
    const checkpoints = new TypeOrmCheckpointStore(this.readModels);
    const sql = sqlClientFor(this.dataSource);
    const postgres = sql instanceof PostgresSqlClient ? sql : undefined;
    return {
      events,
      snapshots: new TypeOrmSnapshotStore(this.dataSource),
      checkpoints,
      deadLetters: new TypeOrmDeadLetterStore(this.dataSource),
      timers: new TypeOrmTimerStore(this.dataSource),
      leases: postgres && new PostgresPartitionLeases(postgres),
      wakeChannel: postgres && new PostgresWakeChannel(postgres, events),
      readModelTables: new TypeOrmReadModelTables(this.readModels),
      // better-sqlite3 runs every statement (and a commit's fsync) on the event loop.
      writesHoldEventLoop: dialectOf(this.dataSource) === 'sqlite' || dialectOf(this.readModels) === 'sqlite',
    };
  }

  provided(token: InjectionToken): DataSource | undefined {
    return token === EVENT_SOURCING_DATA_SOURCE ? this.dataSource : this.readModels;
  }

  /** Closes the DataSources this adapter opened; one the application handed in stays open. */
  async close(): Promise<void> {
    const readModels = this.options.readModels;
    const givenReadModels = typeof readModels === 'object' && 'dataSource' in readModels;
    if (this.readModels !== this.dataSource && !givenReadModels && this.readModels?.isInitialized) await this.readModels.destroy();
    if (this.store && !('dataSource' in this.store) && this.dataSource?.isInitialized) await this.dataSource.destroy();
  }

  private storeOptions(context: AdapterContext): StoreOptions {
    if (!('dataSource' in this.options)) return this.options;
    const given = this.options.dataSource;
    return { dataSource: given instanceof DataSource ? given : context.resolve<DataSource>(given as InjectionToken) };
  }
}
