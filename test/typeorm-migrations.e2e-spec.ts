// The framework's schema as TypeORM migrations: run by an app's own DataSource and by the TypeORM
// CLI, interchangeable with the module's boot-time run, and upgrading a store written by the
// release before them (fixtures made by that release: test/fixtures/store-v2.*).
import { execFile } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import {
  ensureSchema,
  eventSourcingEntitySchemas,
  eventSourcingMigrations,
  TypeOrmCheckpointStore,
  TypeOrmDeadLetterStore,
  TypeOrmEventStore,
  TypeOrmSnapshotStore,
  TypeOrmTimerStore,
  type StoreOptions,
} from '@nest-es/typeorm';
import { createDataSource } from '@nest-es/typeorm';
import { createTestStore, testDatabaseKind, type TestStore } from './support/test-store.js';

const run = promisify(execFile);
const kind = testDatabaseKind();

/** A DataSource on the test store as an app would declare it for TypeORM's migration tooling. */
function appDataSource(options: StoreOptions): DataSource {
  return new DataSource({
    ...createDataSource(options).options,
    migrations: eventSourcingMigrations,
    entities: eventSourcingEntitySchemas(kind),
  } as ConstructorParameters<typeof DataSource>[0]);
}

async function versions(dataSource: DataSource): Promise<number[]> {
  const rows = (await dataSource.query('SELECT version FROM es_schema_migrations ORDER BY version')) as { version: number }[];
  return rows.map((row) => Number(row.version));
}

async function tables(dataSource: DataSource): Promise<string[]> {
  const sql =
    kind === 'sqlite'
      ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'es\\_%' ESCAPE '\\' ORDER BY name"
      : "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name LIKE 'es\\_%' ORDER BY table_name";
  return ((await dataSource.query(sql)) as { name: string }[]).map((row) => row.name);
}

/** What `migration:generate` would write for the listed entity schemas: nothing, if they match the tables. */
async function pendingSchemaChanges(dataSource: DataSource): Promise<string[]> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  return log.upQueries.map((query) => query.query);
}

const ALL_TABLES = ['es_checkpoints', 'es_commands', 'es_dead_letters', 'es_events', 'es_held_events', 'es_schema_migrations', 'es_snapshots', 'es_timers'];
const allVersions = eventSourcingMigrations.map((Migration) => new Migration().version);

describe(`TypeORM-native schema (${kind})`, () => {
  let store: TestStore;

  beforeEach(async () => {
    store = await createTestStore();
  });

  afterEach(async () => {
    await store.cleanup();
  });

  it("runs from an app's DataSource, matches the entity schemas, and reverts step by step", async () => {
    const dataSource = appDataSource(store.options);
    await dataSource.initialize();
    try {
      // TypeORM keeps its own table in the schema, which it does not create.
      if (kind === 'postgres') await dataSource.query(`CREATE SCHEMA ${(store.options as { schema: string }).schema}`);
      const applied = await dataSource.runMigrations();
      expect(applied.map((migration) => migration.name)).toEqual(eventSourcingMigrations.map((Migration) => new Migration().name));
      expect(await tables(dataSource)).toEqual(ALL_TABLES);
      expect(await versions(dataSource)).toEqual(allVersions);
      expect(await pendingSchemaChanges(dataSource)).toEqual([]);

      for (let undone = 1; undone <= allVersions.length; undone++) {
        await dataSource.undoLastMigration();
        expect(await versions(dataSource)).toEqual(allVersions.slice(0, -undone));
      }
      expect(await tables(dataSource)).toEqual(['es_schema_migrations']);
      await dataSource.runMigrations();
      expect(await tables(dataSource)).toEqual(ALL_TABLES);
    } finally {
      await dataSource.destroy();
    }
  });

  it('lets the module boot on a store migrated by TypeORM, and TypeORM run after a boot, each applying a step once', async () => {
    const first = appDataSource(store.options);
    await first.initialize();
    try {
      await ensureSchema(first);
      expect(await versions(first)).toEqual(allVersions);
      // Recorded by TypeORM, skipped by the steps themselves: the tables exist already.
      expect(await first.runMigrations()).toHaveLength(allVersions.length);
      expect(await versions(first)).toEqual(allVersions);
    } finally {
      await first.destroy();
    }
    const second = createDataSource(store.options);
    await second.initialize();
    try {
      await ensureSchema(second);
      const events = await TypeOrmEventStore.create(second);
      const stream = { aggregateType: 'Wallet', aggregateId: 'w1' };
      const metadata = { eventId: 'e1', commandId: null, correlationId: 'k', causationId: null };
      await expect(events.append({ stream, expectedSequence: 0, events: [{ type: 'Opened', payload: {}, metadata }] })).resolves.toMatchObject({
        sequence: 1,
      });
    } finally {
      await second.destroy();
    }
  });

  if (kind === 'sqlite') {
    it('runs with the TypeORM CLI from a data-source file', async () => {
      const { database } = store.options as { database: string };
      const file = join(database, '..', 'data-source.mjs');
      const library = new URL('../libs/typeorm/dist/index.js', import.meta.url).href;
      // Outside the workspace, so imported by path: the TypeORM the CLI runs.
      const typeorm = pathToFileURL(createRequire(import.meta.url).resolve('typeorm')).href;
      writeFileSync(
        file,
        `import { DataSource } from ${JSON.stringify(typeorm)};
import { eventSourcingMigrations } from ${JSON.stringify(library)};
export default new DataSource({ type: 'better-sqlite3', database: ${JSON.stringify(database)}, migrations: eventSourcingMigrations });
`,
      );
      const cli = new URL('../node_modules/typeorm/cli.js', import.meta.url).pathname;
      const { stdout } = await run(process.execPath, [cli, 'migration:run', '-d', file]);
      expect(stdout).toMatch(new RegExp(`${new eventSourcingMigrations[eventSourcingMigrations.length - 1]().name} has been executed successfully`));
      const dataSource = createDataSource(store.options);
      await dataSource.initialize();
      try {
        expect(await versions(dataSource)).toEqual(allVersions);
        expect(await tables(dataSource)).toEqual(ALL_TABLES);
      } finally {
        await dataSource.destroy();
      }
    });
  }

  it('upgrades a store written by the release before TypeORM migrations, keeping every record', async () => {
    await loadStoreFixture(store.options);
    const dataSource = appDataSource(store.options);
    await dataSource.initialize();
    try {
      await ensureSchema(dataSource);
      await dataSource.runMigrations();
      expect(await versions(dataSource)).toEqual(allVersions);
      expect(await pendingSchemaChanges(dataSource)).toEqual([]);

      const events = await TypeOrmEventStore.create(dataSource);
      const all = await events.readAll();
      expect(all.map((event) => event.position)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(all[1]).toMatchObject({
        aggregateId: 'w1',
        sequence: 2,
        type: 'FundsDeposited',
        payload: { amount: 100 },
        metadata: { eventId: 'e1-2', commandId: 'c1-2', correlationId: 'k1', causationId: 'e1-1', traceNote: 'extra' },
        occurredAt: new Date('2026-11-30T12:00:00.000Z'),
      });
      expect(await events.findCommand({ aggregateType: 'Wallet', aggregateId: 'w3' }, 'c3-2')).toMatchObject({ sequence: 2 });
      const appended = await events.append({
        stream: { aggregateType: 'Wallet', aggregateId: 'w1' },
        expectedSequence: 2,
        events: [{ type: 'FundsDeposited', payload: { amount: 1 }, metadata: { eventId: 'new', commandId: null, correlationId: 'k1', causationId: null } }],
      });
      expect(appended.events[0].position).toBe(8);

      const snapshot = await new TypeOrmSnapshotStore(dataSource).loadLatest({ aggregateType: 'Wallet', aggregateId: 'w1' }, 1);
      expect(snapshot).toMatchObject({ sequence: 2, state: { balance: 100 } });
      expect(await new TypeOrmCheckpointStore(dataSource).load('WalletProjector')).toBe(5);
      expect(await new TypeOrmTimerStore(dataSource).pending('WalletPM', 'k1')).toMatchObject([{ id: 't1', payload: { walletId: 'w1' } }]);
      expect(await new TypeOrmDeadLetterStore(dataSource).list({ status: 'pending' })).toMatchObject([
        { kind: 'event', aggregateId: 'w2', reason: 'boom', attempts: 3 },
      ]);
    } finally {
      await dataSource.destroy();
    }
  });
});

/** Puts the previous release's store into the empty test store. */
async function loadStoreFixture(options: StoreOptions): Promise<void> {
  const fixtures = new URL('./fixtures/', import.meta.url);
  if (kind === 'sqlite') {
    copyFileSync(new URL('store-v2.sqlite', fixtures), (options as { database: string }).database);
    return;
  }
  const { schema } = options as { schema: string };
  const dump = readFileSync(new URL('store-v2.postgres.sql', fixtures), 'utf8').replaceAll('__SCHEMA__', schema);
  const dataSource = createDataSource(options);
  await dataSource.initialize();
  try {
    await dataSource.query(dump);
  } finally {
    await dataSource.destroy();
  }
}
