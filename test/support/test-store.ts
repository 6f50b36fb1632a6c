import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { StoreOptions } from '@nest-es/typeorm';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export function testDatabaseKind(): 'sqlite' | 'postgres' {
  return process.env.ES_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
}

export interface TestStore {
  options: StoreOptions;
  /** Drops what the store created (the SQLite folder or the PostgreSQL schema). */
  cleanup(): Promise<void>;
}

/**
 * A fresh, empty store for one suite on the database under test: a new SQLite file, or a new
 * PostgreSQL schema. Several apps may open the same options (restarts, two instances).
 */
export async function createTestStore(): Promise<TestStore> {
  if (testDatabaseKind() === 'sqlite') {
    const folder = mkdtempSync(join(tmpdir(), 'es-test-'));
    return {
      options: { type: 'sqlite', database: join(folder, 'events.sqlite') },
      cleanup: async () => rmSync(folder, { recursive: true, force: true }),
    };
  }
  const schema = `es_test_${randomBytes(6).toString('hex')}`;
  return {
    options: { type: 'postgres', url: TEST_DATABASE_URL, schema },
    cleanup: async () => {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
