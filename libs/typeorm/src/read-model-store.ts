import { join, parse } from 'node:path';
import type { DataSource } from 'typeorm';
import type { ReadModelOptions, StoreOptions } from './adapter-options.js';
import { openDataSource } from './open-data-source.js';
import { dialectOf } from './sql-client.js';
import { sqlClientFor } from './sql-client-for.js';

const IN_MEMORY = ':memory:';

/**
 * Where the read models and checkpoints go for a module's `store` and `readModels` options (`store`
 * itself when they share its database). SQLite has one writer per file: a projector's transaction
 * open in the store's file would hold up every append, so by default they get a file of their own
 * beside it (`app.read-models.sqlite` for `app.sqlite`), or another in-memory database. PostgreSQL
 * and a given DataSource keep them in the store's database.
 */
export function readModelStore(store: StoreOptions, readModels?: ReadModelOptions): StoreOptions {
  if (readModels === 'store') return store;
  if (readModels !== undefined) return readModels;
  if (!('type' in store) || store.type !== 'sqlite') return store;
  // better-sqlite3 opens '' as a private temporary database, like ':memory:'.
  if (store.database === IN_MEMORY || store.database === '') return { type: 'sqlite', database: IN_MEMORY };
  const { dir, name, ext } = parse(store.database);
  return { type: 'sqlite', database: join(dir, `${name}.read-models${ext}`) };
}

/**
 * The read models' DataSource, initialized with the framework's schema (its `es_checkpoints` is the
 * one used). A SQLite store that already holds checkpoints predates the separate file: its read
 * models are in it, so it keeps them unless `readModels` says otherwise.
 */
export async function openReadModelDataSource(storeDataSource: DataSource, store: StoreOptions, readModels?: ReadModelOptions): Promise<DataSource> {
  const target = readModelStore(store, readModels);
  if (target === store) return storeDataSource;
  if (readModels === undefined && (await holdsCheckpoints(storeDataSource))) return storeDataSource;
  const dataSource = await openDataSource(target);
  // Its commits need not wait for the disk: all it holds (read models, checkpoints) is derived from events
  // already on disk, and WAL keeps commits in order, so a power loss can only leave it behind, and the
  // subscribers redo what it lost, as after a crash. The store's file keeps synchronous = FULL.
  if (!('dataSource' in target) && dialectOf(dataSource) === 'sqlite') await dataSource.query('PRAGMA synchronous = NORMAL');
  return dataSource;
}

async function holdsCheckpoints(dataSource: DataSource): Promise<boolean> {
  return (await sqlClientFor(dataSource).all('SELECT 1 FROM es_checkpoints LIMIT 1')).length > 0;
}
