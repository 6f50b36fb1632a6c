// Fails the PostgreSQL run loudly when the server cannot be reached: these suites are never skipped.
import pg from 'pg';
import buildForChildProcesses from './build.global-setup.js';

export default async function globalSetup() {
  const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    throw new Error(`PostgreSQL suites need a server at TEST_DATABASE_URL=${url}, but connecting failed: ${error.message}`, { cause: error });
  } finally {
    await client.end().catch(() => undefined);
  }
  await buildForChildProcesses();
}
