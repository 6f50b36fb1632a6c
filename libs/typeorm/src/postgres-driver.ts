import { createRequire } from 'node:module';
import type pg from 'pg';
import type { DataSource, DataSourceOptions } from 'typeorm';
import { isPackageNotFound, MissingPeerDependencyError } from '@nest-es/core/internal';

/** A PostgreSQL DataSource's options (PostgresDataSourceOptions in TypeORM 1, PostgresConnectionOptions in 0.3). */
export type PostgresOptions = Extract<DataSourceOptions, { type: 'postgres' }>;

/**
 * The pg module for the DataSource, as TypeORM's driver picks it: the `driver` option when given,
 * else the pg package (an optional peer of ours; a PostgreSQL DataSource cannot run without it).
 */
export function pgModuleOf(dataSource: DataSource): typeof pg {
  return ((dataSource.options as PostgresOptions).driver as typeof pg | undefined) ?? pgPackage();
}

let loaded: typeof pg | undefined;

function pgPackage(): typeof pg {
  try {
    loaded ??= createRequire(import.meta.url)('pg') as typeof pg;
  } catch (error) {
    if (isPackageNotFound(error, 'pg')) throw new MissingPeerDependencyError('pg', 'the PostgreSQL store', { cause: error });
    throw error;
  }
  return loaded;
}

/**
 * Settings for a connection of our own, outside TypeORM's pool, that matches the pooled ones: what
 * TypeORM's driver gives its pool (PostgresDriver.createPool: the master's credentials, the connect
 * timeout and application name, then `extra` over them). `extra` carries what createDataSource adds:
 * the statement and connect timeouts, keep-alive, and the search_path that selects the schema. The
 * `schema` option is not applied on top: the pooled connections get it only through `extra` (ensureSchema
 * checks they resolve to it), and a connection of ours must agree with them on `current_schema()`,
 * which names the lock keys and the wake-up channel.
 */
export function dedicatedConnectionConfig(options: PostgresOptions): pg.ClientConfig {
  const credentials = options.replication === undefined ? options : options.replication.master;
  return {
    connectionString: credentials.url,
    host: credentials.host,
    port: credentials.port,
    user: credentials.username,
    password: credentials.password,
    database: credentials.database,
    // Handed to pg as given, as TypeORM does (its type names node's TlsOptions, pg's ConnectionOptions).
    ssl: credentials.ssl as pg.ClientConfig['ssl'],
    connectionTimeoutMillis: options.connectTimeoutMS,
    application_name: options.applicationName ?? credentials.applicationName,
    ...(options.extra as pg.ClientConfig | undefined),
  };
}
