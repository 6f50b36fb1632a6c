import { DataSource, DriverPackageNotInstalledError, type DataSourceOptions } from 'typeorm';
import type { StoreOptions } from './adapter-options.js';
import { MissingPeerDependencyError } from '@nest-es/core/internal';
import { SQLITE_BUSY_TIMEOUT_MS } from './sqlite-lock.js';

/**
 * Bounds on a silent PostgreSQL: without them a request waits as long as a stalled connection stays
 * open. The statement bound is kept by the server (statement_timeout, which cancels and leaves the
 * connection usable) and by the client (query_timeout, for a connection whose server went quiet).
 */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 2000;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Reads `sqlite:<path>`, `sqlite::memory:`, `postgres://...` or `postgresql://...`.
 * A PostgreSQL URL may carry `?schema=<name>`, which becomes the `schema` option.
 */
export function parseDatabaseUrl(url: string): StoreOptions {
  if (url.startsWith('sqlite:')) {
    // `sqlite:///abs/path` and `sqlite://rel/path` are common spellings of `sqlite:<path>`.
    const path = url.slice('sqlite:'.length).replace(/^\/\//, '');
    if (path === '') throw new Error('database URL "sqlite:" names no file: use sqlite:<path> or sqlite::memory:');
    return { type: 'sqlite', database: path };
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const parsed = new URL(url);
    const schema = parsed.searchParams.get('schema') ?? undefined;
    parsed.searchParams.delete('schema');
    return schema === undefined ? { type: 'postgres', url } : { type: 'postgres', url: parsed.toString(), schema };
  }
  // Only the scheme is echoed: the rest of a URL may hold a password.
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(url)?.[0] ?? '(none)';
  throw new Error(
    `unsupported database URL scheme ${JSON.stringify(scheme)}: expected sqlite:<path>, sqlite::memory:, postgres://... or postgresql://...`,
  );
}

/** A DataSource for the options, not yet initialized (a given DataSource is returned as is). */
export function createDataSource(options: StoreOptions): DataSource {
  if ('dataSource' in options) return options.dataSource;
  if (options.type === 'sqlite') {
    return withDriver('better-sqlite3', 'the SQLite store', {
      type: 'better-sqlite3',
      // TypeORM creates the parent folder of a file database when it connects.
      database: options.database,
      enableWAL: true,
      timeout: SQLITE_BUSY_TIMEOUT_MS,
      // WAL's default (NORMAL) may lose the last commits on power loss; an acknowledged append must not.
      prepareDatabase: (db: { pragma(source: string): unknown }) => {
        db.pragma('synchronous = FULL');
      },
    });
  }
  const { url, schema, poolSize } = options;
  const statementTimeoutMs = positive('statementTimeoutMs', options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS);
  const connectTimeoutMs = positive('connectTimeoutMs', options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
  if (schema !== undefined && !IDENTIFIER.test(schema)) {
    throw new Error(`PostgreSQL schema name ${JSON.stringify(schema)} must be a plain identifier ([A-Za-z_][A-Za-z0-9_]*)`);
  }
  return withDriver('pg', 'the PostgreSQL store', {
    type: 'postgres',
    url,
    schema,
    poolSize,
    // The store's SQL names tables without a schema: every pooled connection must resolve them in `schema`
    // (ensureSchema creates it and checks this).
    extra: {
      ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
      statement_timeout: statementTimeoutMs,
      // The client-side bound fires a little later, so a live server reports its own timeout first.
      query_timeout: statementTimeoutMs + 1000,
      connectionTimeoutMillis: connectTimeoutMs,
      // Finds a peer that vanished without closing the connection (a dead host, a dropped route).
      keepAlive: true,
    },
  });
}

/** TypeORM loads the driver package (an optional peer of ours) when the DataSource is created. */
function withDriver(packageName: string, feature: string, options: DataSourceOptions): DataSource {
  try {
    return new DataSource(options);
  } catch (error) {
    if (error instanceof DriverPackageNotInstalledError) throw new MissingPeerDependencyError(packageName, feature, { cause: error });
    throw error;
  }
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number of milliseconds, got ${value}`);
  return value;
}
