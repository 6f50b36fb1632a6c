import type { DataSource } from 'typeorm';
import { PostgresSqlClient } from './postgres-sql-client.js';
import { dialectOf } from './sql-client.js';
import { SqliteSqlClient } from './sqlite-sql-client.js';

/** The SqlClient of a store on an initialized DataSource (see SqlClient). */
export function sqlClientFor(dataSource: DataSource): SqliteSqlClient | PostgresSqlClient {
  if (!dataSource.isInitialized) throw new Error('initialize the DataSource before creating a store on it');
  return dialectOf(dataSource) === 'sqlite' ? new SqliteSqlClient(dataSource) : new PostgresSqlClient(dataSource);
}
