import { DataSource, DriverPackageNotInstalledError, type DataSourceOptions } from 'typeorm';
import { MissingPeerDependencyError } from '../../errors/index.js';

/** Where the store lives: a database to open, or a DataSource the application already owns. */
export type StoreOptions =
  | { type: 'sqlite'; database: string }
  | { type: 'postgres'; url: string; schema?: string; poolSize?: number }
  | { dataSource: DataSource };

/** How long a SQLite connection waits for another process's write lock before SQLITE_BUSY. */
const SQLITE_BUSY_TIMEOUT_MS = 5000;

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
    extra: schema === undefined ? undefined : { options: `-c search_path=${schema}` },
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
