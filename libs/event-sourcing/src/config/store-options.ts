import type { DataSource } from 'typeorm';

/** Where the store lives: a database to open, or a DataSource the application already owns. */
export type StoreOptions =
  | { type: 'sqlite'; database: string }
  | {
      type: 'postgres';
      url: string;
      schema?: string;
      poolSize?: number;
      /** Longest a statement may run or wait on a silent connection before it fails (default 5000 ms). */
      statementTimeoutMs?: number;
      /** Longest opening a connection, or waiting for a free one in the pool, may take (default 2000 ms). */
      connectTimeoutMs?: number;
    }
  | { dataSource: DataSource };

/**
 * Where the read models and the subscribers' checkpoints live: a database of their own, or `'store'`
 * (the store's database).
 */
export type ReadModelOptions = StoreOptions | 'store';
