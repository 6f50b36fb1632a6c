import type { InjectionToken } from '@nestjs/common';
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

/**
 * `typeorm(options)`: the database to open (`{type: 'sqlite', database}`, `{type: 'postgres', url}`),
 * or the application's own DataSource (`{dataSource}`: the instance, or the token it is registered
 * under, e.g. `getDataSourceToken('events')` of `@nestjs/typeorm`); and where the read models go.
 */
export type TypeOrmAdapterOptions = (Exclude<StoreOptions, { dataSource: DataSource }> | { dataSource: DataSource | InjectionToken }) & {
  /**
   * The database of the projectors' read models and of every subscriber's checkpoint, which the
   * projectors write in one transaction (`READ_MODEL_DATA_SOURCE`). Default for a SQLite store: a file
   * of its own beside it (`app.read-models.sqlite` for `app.sqlite`; another in-memory database for
   * `:memory:`), so that a projector's open transaction never holds up appends; a SQLite file that
   * already holds checkpoints keeps them. Otherwise, and with `'store'`: the store's database.
   */
  readModels?: ReadModelOptions;
};
