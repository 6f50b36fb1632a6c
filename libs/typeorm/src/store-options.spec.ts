import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDataSource, parseDatabaseUrl } from './store-options.js';
import { SQLITE_BUSY_TIMEOUT_MS } from './sqlite-lock.js';

describe('parseDatabaseUrl', () => {
  it.each([
    ['sqlite:data/events.sqlite', { type: 'sqlite', database: 'data/events.sqlite' }],
    ['sqlite:///var/lib/es.db', { type: 'sqlite', database: '/var/lib/es.db' }],
    ['sqlite::memory:', { type: 'sqlite', database: ':memory:' }],
    ['postgres://u:p@db:5432/app', { type: 'postgres', url: 'postgres://u:p@db:5432/app' }],
    ['postgresql://db/app', { type: 'postgres', url: 'postgresql://db/app' }],
    ['postgres://db/app?schema=poker&sslmode=disable', { type: 'postgres', url: 'postgres://db/app?sslmode=disable', schema: 'poker' }],
  ])('reads %s', (url, options) => {
    expect(parseDatabaseUrl(url)).toEqual(options);
  });

  it('refuses other URLs without echoing their credentials', () => {
    expect(() => parseDatabaseUrl('mysql://root:secret@db/app')).toThrow(
      'unsupported database URL scheme "mysql:": expected sqlite:<path>, sqlite::memory:, postgres://... or postgresql://...',
    );
    expect(() => parseDatabaseUrl('events.sqlite')).toThrow(/unsupported database URL scheme "\(none\)"/);
    expect(() => parseDatabaseUrl('sqlite:')).toThrow(/names no file/);
  });
});

describe('createDataSource', () => {
  it('opens SQLite durably (WAL, synchronous FULL) with a short busy wait, creating the parent folder', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'es-options-'));
    const dataSource = createDataSource({ type: 'sqlite', database: join(folder, 'nested', 'deeper', 'events.sqlite') });
    try {
      expect(dataSource.isInitialized).toBe(false);
      await dataSource.initialize();
      expect(await dataSource.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
      expect(await dataSource.query('PRAGMA synchronous')).toEqual([{ synchronous: 2 }]);
      // The driver waits for a lock on the event loop: briefly (longer locks are out-waited with the loop free).
      expect((await dataSource.query('PRAGMA busy_timeout')) as unknown[]).toEqual([{ timeout: SQLITE_BUSY_TIMEOUT_MS }]);
      expect(SQLITE_BUSY_TIMEOUT_MS).toBeLessThanOrEqual(50);
    } finally {
      if (dataSource.isInitialized) await dataSource.destroy();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('points every PostgreSQL connection at the schema', () => {
    const dataSource = createDataSource({ type: 'postgres', url: 'postgres://db/app', schema: 'poker', poolSize: 4 });
    expect(dataSource.options).toMatchObject({ type: 'postgres', schema: 'poker', poolSize: 4, extra: { options: '-c search_path=poker' } });
    expect(() => createDataSource({ type: 'postgres', url: 'postgres://db/app', schema: 'x; drop' })).toThrow(/plain identifier/);
  });

  it('hands back a given DataSource', () => {
    const dataSource = createDataSource({ type: 'sqlite', database: ':memory:' });
    expect(createDataSource({ dataSource })).toBe(dataSource);
  });
});
