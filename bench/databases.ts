import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { StoreOptions } from '@nest-es/typeorm';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface BenchDatabase {
  kind: DatabaseKind;
  store: StoreOptions;
  /** What the bench created is dropped (the SQLite folder, the PostgreSQL schema). */
  cleanup(): Promise<void>;
}

/** A fresh SQLite file in the temp folder, with the store's own pragmas (WAL, synchronous=FULL). */
export function sqliteDatabase(): BenchDatabase {
  const folder = mkdtempSync(join(tmpdir(), 'es-bench-'));
  return {
    kind: 'sqlite',
    store: { type: 'sqlite', database: join(folder, 'bench.sqlite') },
    cleanup: async () => rmSync(folder, { recursive: true, force: true }),
  };
}

export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** BENCH_DATABASE_URL, else a postgres DATABASE_URL, else the local test server. */
export function postgresUrl(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BENCH_DATABASE_URL) return env.BENCH_DATABASE_URL;
  if (env.DATABASE_URL?.startsWith('postgres')) return env.DATABASE_URL;
  return DEFAULT_POSTGRES_URL;
}

/** A fresh schema on the PostgreSQL server, or the reason there is none (the PostgreSQL figures are then skipped). */
export async function postgresDatabase(url: string): Promise<BenchDatabase | { skipped: string }> {
  const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await probe.connect();
    await probe.query('SELECT 1');
  } catch (error) {
    return { skipped: `PostgreSQL not reachable (${(error as Error).message})` };
  } finally {
    await probe.end().catch(() => undefined);
  }
  const schema = `es_bench_${randomBytes(6).toString('hex')}`;
  return {
    kind: 'postgres',
    store: { type: 'postgres', url, schema },
    cleanup: () => dropSchema(url, schema),
  };
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}
