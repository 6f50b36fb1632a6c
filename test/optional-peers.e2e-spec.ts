import { spawnSync } from 'node:child_process';
import type { StoreOptions } from '@nest-es/typeorm';

/*
 * pg, better-sqlite3, prom-client, @nestjs/cqrs and @opentelemetry/api are optional peer dependencies: an app runs
 * without the ones it does not use, and one that needs a missing one is told which to install. So is the HTTP
 * adapter: Express or Fastify, whichever the app bootstraps with.
 * Each case is a child process on the build (test/setup/build.global-setup.js) with some packages
 * made to look not installed.
 */
interface ChildResult {
  commandStatus?: number;
  metricsStatus?: number;
  metrics?: string;
  error?: { name: string; message: string; packageName?: string };
}

function runWithout(refused: string[], app: { store: StoreOptions; http?: boolean; metrics?: boolean; fastify?: boolean }): ChildResult {
  const child = spawnSync(process.execPath, ['--import', './dist/test/support/refuse-packages.js', 'dist/test/support/optional-peers-child.js'], {
    encoding: 'utf8',
    env: { ...process.env, REFUSE_PACKAGES: refused.join(','), OPTIONAL_PEERS_CHILD: JSON.stringify(app) },
    timeout: 30_000,
  });
  const line = child.stdout.trim().split('\n').pop() ?? '';
  if (!line.startsWith('{')) throw new Error(`child printed no result (status ${child.status}): ${child.stderr}`);
  return JSON.parse(line) as ChildResult;
}

const SQLITE: StoreOptions = { type: 'sqlite', database: ':memory:' };

describe('optional peer dependencies', () => {
  it('a SQLite app with HTTP and metrics off runs without pg, prom-client, @nestjs/cqrs and @opentelemetry/api (no tracing)', () => {
    const result = runWithout(['pg', 'prom-client', '@nestjs/cqrs', '@opentelemetry/api'], { store: SQLITE, http: true, metrics: false });
    expect(result).toMatchObject({ commandStatus: 200, metricsStatus: 404 });
  });

  it('metrics are on by default with HTTP, and served from prom-client', () => {
    const result = runWithout(['pg', '@nestjs/cqrs'], { store: SQLITE, http: true });
    expect(result).toMatchObject({ commandStatus: 200, metricsStatus: 200 });
    expect(result.metrics).toContain('es_commands_total{aggregate_type="counter",command_type="AddMany",outcome="ok"} 1');
  });

  it('an app on Fastify serves commands and metrics without Express installed', () => {
    const result = runWithout(['@nestjs/platform-express', 'express', 'body-parser', 'pg'], { store: SQLITE, http: true, fastify: true });
    expect(result).toMatchObject({ commandStatus: 200, metricsStatus: 200 });
  });

  it('the SQLite store without better-sqlite3 names the package to install', () => {
    const result = runWithout(['better-sqlite3'], { store: SQLITE, http: true, metrics: false });
    expect(result.error).toMatchObject({ name: 'MissingPeerDependencyError', packageName: 'better-sqlite3' });
    expect(result.error?.message).toContain('npm install better-sqlite3');
  });

  it('the PostgreSQL store without pg names the package to install', () => {
    // The driver is loaded before any connection: no server is needed to see the error.
    const result = runWithout(['pg'], { store: { type: 'postgres', url: 'postgres://127.0.0.1:1/none' }, http: true, metrics: false });
    expect(result.error).toMatchObject({ name: 'MissingPeerDependencyError', packageName: 'pg' });
    expect(result.error?.message).toContain('npm install pg');
  });

  it('metrics without prom-client name the package to install', () => {
    const result = runWithout(['prom-client'], { store: SQLITE, http: true });
    expect(result.error).toMatchObject({ name: 'MissingPeerDependencyError', packageName: 'prom-client' });
    expect(result.error?.message).toContain('npm install prom-client');
  });
});
