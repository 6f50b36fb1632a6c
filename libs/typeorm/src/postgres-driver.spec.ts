import type { DataSourceOptions } from 'typeorm';
import { dedicatedConnectionConfig, type PostgresOptions } from './postgres-driver.js';
import { createDataSource } from './store-options.js';

describe('dedicatedConnectionConfig', () => {
  it("carries the store's schema and its statement and connect timeouts, as the pooled connections get them", () => {
    const dataSource = createDataSource({ type: 'postgres', url: 'postgres://es@db:5432/app', schema: 'poker', statementTimeoutMs: 1500, connectTimeoutMs: 700 });
    expect(dedicatedConnectionConfig(dataSource.options as PostgresOptions)).toMatchObject({
      connectionString: 'postgres://es@db:5432/app',
      options: '-c search_path=poker',
      statement_timeout: 1500,
      query_timeout: 2500,
      connectionTimeoutMillis: 700,
      keepAlive: true,
    });
  });

  it("takes an application's DataSource settings as TypeORM's driver gives them to its pool: the master's credentials, then `extra`", () => {
    const options: DataSourceOptions = {
      type: 'postgres',
      host: 'ignored-when-replicated',
      replication: {
        master: { host: 'primary', port: 6432, username: 'app', password: 'secret', database: 'shop', ssl: true, applicationName: 'shop-api' },
        slaves: [{ host: 'replica' }],
      },
      connectTimeoutMS: 900,
      extra: { connectionTimeoutMillis: 300, options: '-c search_path=shop' },
    };
    expect(dedicatedConnectionConfig(options as PostgresOptions)).toMatchObject({
      host: 'primary',
      port: 6432,
      user: 'app',
      password: 'secret',
      database: 'shop',
      ssl: true,
      application_name: 'shop-api',
      connectionTimeoutMillis: 300,
      options: '-c search_path=shop',
    });
  });
});
