import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { StoreOptions } from './adapter-options.js';
import { openDataSource } from './open-data-source.js';
import { openReadModelDataSource, readModelStore } from './read-model-store.js';

describe('readModelStore', () => {
  it.each([
    ['data/app.sqlite', 'data/app.read-models.sqlite'],
    ['/var/lib/poker.db', '/var/lib/poker.read-models.db'],
    ['events', 'events.read-models'],
    [':memory:', ':memory:'],
    ['', ':memory:'],
  ])('puts the read models of SQLite %j in %j by default', (database, readModels) => {
    expect(readModelStore({ type: 'sqlite', database })).toEqual({ type: 'sqlite', database: readModels });
  });

  it('keeps them in the store on PostgreSQL, or when told to', () => {
    const postgres: StoreOptions = { type: 'postgres', url: 'postgres://db/app' };
    const sqlite: StoreOptions = { type: 'sqlite', database: 'app.sqlite' };
    expect(readModelStore(postgres)).toBe(postgres);
    expect(readModelStore(sqlite, 'store')).toBe(sqlite);
  });

  it('takes the database it is given', () => {
    const own: StoreOptions = { type: 'sqlite', database: 'views.sqlite' };
    expect(readModelStore({ type: 'sqlite', database: 'app.sqlite' }, own)).toBe(own);
  });
});

describe('openReadModelDataSource', () => {
  const synchronous = async (dataSource: DataSource) => ((await dataSource.query('PRAGMA synchronous')) as Array<{ synchronous: number }>)[0].synchronous;
  let folder: string;
  const opened: DataSource[] = [];
  const open = async (options: StoreOptions) => {
    const dataSource = await openDataSource(options);
    opened.push(dataSource);
    return dataSource;
  };
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'es-read-models-'))));
  afterEach(async () => {
    for (const dataSource of opened.splice(0)) if (dataSource.isInitialized) await dataSource.destroy();
    rmSync(folder, { recursive: true, force: true });
  });

  it('lets a SQLite file of read models commit without waiting for the disk, while the store waits (FULL)', async () => {
    const store: StoreOptions = { type: 'sqlite', database: join(folder, 'app.sqlite') };
    const storeDataSource = await open(store);
    const readModels = await openReadModelDataSource(storeDataSource, store);
    opened.push(readModels);
    expect(readModels).not.toBe(storeDataSource);
    expect(await synchronous(storeDataSource)).toBe(2);
    expect(await synchronous(readModels)).toBe(1);
    const own = await openReadModelDataSource(storeDataSource, store, { type: 'sqlite', database: join(folder, 'views.sqlite') });
    opened.push(own);
    expect(await synchronous(own)).toBe(1);
  });

  it('leaves the store, and a DataSource it is given, as they are', async () => {
    const store: StoreOptions = { type: 'sqlite', database: join(folder, 'app.sqlite') };
    const storeDataSource = await open(store);
    expect(await openReadModelDataSource(storeDataSource, store, 'store')).toBe(storeDataSource);
    const given = await open({ type: 'sqlite', database: join(folder, 'given.sqlite') });
    expect(await openReadModelDataSource(storeDataSource, store, { dataSource: given })).toBe(given);
    expect(await synchronous(storeDataSource)).toBe(2);
    expect(await synchronous(given)).toBe(2);
  });
});
