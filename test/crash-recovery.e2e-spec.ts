import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, rmSync } from 'node:fs';
import type { DataSource } from 'typeorm';
import { CommandGateway } from '@nest-es/core';
import { Test } from '@nestjs/testing';
import { EventSourcingModule } from '@nest-es/core';
import { PlaceOrder, SHOP_PROVIDERS } from './support/shop.domain.js';
import { allStoredEvents } from './support/stored-events.js';
import { createTestStore, testDatabaseKind, type TestStore } from './support/test-store.js';
import { until } from './support/until.js';
import { deterministicId } from '@nest-es/core/internal';
import { openDataSource, typeorm } from '@nest-es/typeorm';
import { readModelStore, TypeOrmCheckpointStore, TypeOrmEventStore } from '@nest-es/typeorm';

const ORDERS = 300;
/** How long a child process may take to reach a step of a test (its first batch, a failed commit). */
const STEP_TIMEOUT_MS = 45_000;
/** How long a restarted process may take to work through the whole backlog. */
const CATCH_UP_TIMEOUT_MS = 120_000;
const SKUS = 30;
/** What each subscriber of the shop handles (see shop.domain.ts). */
const HANDLED: Record<string, string[]> = {
  'shop-view': ['OrderPlaced', 'OrderPaid', 'OrderCancelled', 'StockReserved'],
  'order-stock': ['OrderPlaced'],
  'order-flow': ['OrderPlaced', 'OrderPaid', 'OrderCancelled'],
};

function startChild(store: TestStore, projectorDelayMs: number, stderr: 'inherit' | 'pipe' = 'inherit'): ChildProcess {
  return spawn(process.execPath, ['dist/test/support/crash-child.js'], {
    env: { ...process.env, CRASH_CHILD_STORE: JSON.stringify(store.options), CRASH_CHILD_PROJECTOR_DELAY_MS: String(projectorDelayMs) },
    stdio: ['ignore', 'pipe', stderr],
  });
}

async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** A store with ORDERS orders placed while no subscriber ran; `readModels` holds the read models and checkpoints (their own SQLite file beside the store's). */
async function storeWithBacklog(): Promise<Omit<Backlog, 'children'>> {
  const store = await createTestStore();
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options), processing: { enabled: false } })],
    providers: SHOP_PROVIDERS,
  }).compile();
  const writer = moduleRef.createNestApplication({ logger: false });
  await writer.init();
  const gateway = writer.get(CommandGateway);
  await Promise.all(Array.from({ length: ORDERS }, (_, i) => gateway.send(new PlaceOrder(`order-${i}`, `sku-${i % SKUS}`, 1))));
  await writer.close();
  const dataSource = await openDataSource(store.options);
  const readModelOptions = readModelStore(store.options);
  return { store, dataSource, readModels: readModelOptions === store.options ? dataSource : await openDataSource(readModelOptions) };
}

interface Backlog {
  store: TestStore;
  dataSource: DataSource;
  readModels: DataSource;
  /** The processes a test started: killed after the suite. */
  children: ChildProcess[];
}

/** The backlog store for the calling suite: made before its tests, everything closed after. Read the fields inside tests. */
function useBacklog(): Backlog {
  const backlog = { children: [] as ChildProcess[] } as Backlog;
  beforeAll(async () => {
    Object.assign(backlog, await storeWithBacklog());
  });
  afterAll(async () => {
    for (const child of backlog.children) await killHard(child);
    if (backlog.readModels !== backlog.dataSource) await backlog.readModels?.destroy();
    await backlog.dataSource?.destroy();
    await backlog.store?.cleanup();
  });
  return backlog;
}

/** Caught up: every subscriber is past the last event it handles, and the head stopped moving (sagas and the process manager append events of their own). */
async function untilCaughtUp(events: TypeOrmEventStore, checkpoints: TypeOrmCheckpointStore): Promise<void> {
  let head = -1;
  await until(async () => {
    const stored = await allStoredEvents(events);
    const now = stored.length ? stored[stored.length - 1].position : 0;
    const positions = await checkpoints.loadAll();
    const done =
      now === head &&
      Object.entries(HANDLED).every(([name, types]) => {
        const last = stored.filter((event) => types.includes(event.type)).pop()?.position ?? 0;
        return (positions.get(name) ?? 0) >= last;
      });
    head = now;
    return done;
  }, 'the restarted process to catch up', CATCH_UP_TIMEOUT_MS);
}

/** A new process on the backlog's store, run until every subscriber caught up, then killed. */
async function restartUntilCaughtUp(backlog: Backlog, events: TypeOrmEventStore, checkpoints: TypeOrmCheckpointStore): Promise<void> {
  const child = startChild(backlog.store, 0);
  backlog.children.push(child);
  await untilCaughtUp(events, checkpoints);
  await killHard(child);
}

/** Every order's row in the projector's read model, and how many times it was projected. */
async function projections(dataSource: DataSource): Promise<Array<{ order_id: string; projections: number }>> {
  return dataSource.query('SELECT order_id, projections FROM shop_orders');
}

/** Every order projected once, and each saga command, fact and process step stored once, whatever was redelivered. */
async function expectEachHandledOnce(events: TypeOrmEventStore, readModels: DataSource): Promise<void> {
  const all = await allStoredEvents(events);
  const placed = all.filter((event) => event.type === 'OrderPlaced');
  expect(placed).toHaveLength(ORDERS);

  // Projector: exactly once per event (the read model counts its projections per order).
  const rows = await projections(readModels);
  expect(rows).toHaveLength(ORDERS);
  expect(rows.filter((row) => Number(row.projections) !== 1)).toEqual([]);
  const reservedRows: Array<{ reserved: number }> = await readModels.query('SELECT reserved FROM shop_stock');
  expect(reservedRows.reduce((sum, row) => sum + Number(row.reserved), 0)).toBe(ORDERS);

  // Saga: one ReserveStock per order, with the id derived from the order's event (no doubles after redelivery).
  const reserved = all.filter((event) => event.type === 'StockReserved');
  expect(reserved).toHaveLength(ORDERS);
  const expectedIds = new Set(placed.map((event) => deterministicId('order-stock', event.metadata.eventId, 0)));
  expect(new Set(reserved.map((event) => event.metadata.commandId))).toEqual(expectedIds);
  // Facts: one count per sku, whatever was redelivered.
  expect(all.filter((event) => event.type === 'StockCounted')).toHaveLength(SKUS);
  // Process manager: one tracking event per order.
  expect(all.filter((event) => event.type === 'OrderTracked')).toHaveLength(ORDERS);
}

describe('crash recovery: a process killed in the middle of a backlog', () => {
  const backlog = useBacklog();

  it('projects every event exactly once and emits every saga command exactly once after a SIGKILL and a restart', async () => {
    const checkpoints = new TypeOrmCheckpointStore(backlog.readModels);
    const events = await TypeOrmEventStore.create(backlog.dataSource);
    const backlogHead = await events.headPosition();

    const first = startChild(backlog.store, 10);
    backlog.children.push(first);
    // Kill it once the projector committed some batches but is far from done.
    await until(async () => (await checkpoints.load('shop-view')) > 0, 'the first projector batch', STEP_TIMEOUT_MS);
    await killHard(first);
    const atKill = await checkpoints.load('shop-view');
    expect(atKill).toBeLessThan(backlogHead);

    await restartUntilCaughtUp(backlog, events, checkpoints);

    await expectEachHandledOnce(events, backlog.readModels);
  }, 180_000);
});

/*
 * The crash lands exactly between the projector's read-model writes and its checkpoint: a trigger
 * fails every checkpoint move of the projector (as a process dying at that commit would leave it),
 * the process is killed, the trigger dropped, a new process started. Only a checkpoint committed in
 * the same transaction as the writes leaves every order projected exactly once.
 */
describe('crash recovery: a crash between the projection and its checkpoint', () => {
  const FAULT = 'injected crash at the checkpoint commit';
  const backlog = useBacklog();

  async function failCheckpointMoves(): Promise<void> {
    if (testDatabaseKind() === 'sqlite') {
      await backlog.readModels.query(
        `CREATE TRIGGER crash_at_checkpoint BEFORE UPDATE ON es_checkpoints WHEN NEW.subscriber = 'shop-view' BEGIN SELECT RAISE(ABORT, '${FAULT}'); END`,
      );
      return;
    }
    await backlog.readModels.query(`CREATE FUNCTION crash_at_checkpoint() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '${FAULT}'; END $$`);
    await backlog.readModels.query(
      `CREATE TRIGGER crash_at_checkpoint BEFORE UPDATE ON es_checkpoints FOR EACH ROW WHEN (NEW.subscriber = 'shop-view') EXECUTE FUNCTION crash_at_checkpoint()`,
    );
  }

  async function healCheckpointMoves(): Promise<void> {
    await backlog.readModels.query(testDatabaseKind() === 'sqlite' ? 'DROP TRIGGER crash_at_checkpoint' : 'DROP TRIGGER crash_at_checkpoint ON es_checkpoints');
  }

  it('projects every event exactly once when the checkpoint commit fails after the read-model writes and the process dies', async () => {
    const checkpoints = new TypeOrmCheckpointStore(backlog.readModels);
    const events = await TypeOrmEventStore.create(backlog.dataSource);
    await failCheckpointMoves();

    const first = startChild(backlog.store, 0, 'pipe');
    backlog.children.push(first);
    let log = '';
    first.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    // Several batches' writes were tried and their checkpoint commits failed.
    await until(async () => log.split(FAULT).length > 3, 'the checkpoint commit to fail', STEP_TIMEOUT_MS);
    await killHard(first);
    expect(await checkpoints.load('shop-view')).toBe(0);

    await healCheckpointMoves();
    await restartUntilCaughtUp(backlog, events, checkpoints);

    // Each order projected once per event of its own (a refused stock reservation adds an OrderCancelled).
    const stored = new Map<string, number>();
    for (const event of await allStoredEvents(events)) if (event.aggregateType === 'order') stored.set(event.aggregateId, (stored.get(event.aggregateId) ?? 0) + 1);
    const rows = await projections(backlog.readModels);
    expect(rows).toHaveLength(ORDERS);
    expect(rows.filter((row) => Number(row.projections) !== stored.get(row.order_id))).toEqual([]);
  }, 180_000);
});

/*
 * On SQLite the read models' file commits without waiting for the disk, so a power loss may leave it
 * behind the events' file (never ahead: it holds only what was derived from events already on disk).
 * Here the file is put back to a copy taken while the backlog was being worked through, after the
 * process had gone on to the end: the restarted process must redo what the file lost, and no saga
 * command, fact or process step may be stored twice.
 */
(testDatabaseKind() === 'sqlite' ? describe : describe.skip)('crash recovery: the read models\' file behind the events after a power loss (SQLite)', () => {
  const backlog = useBacklog();

  it('catches the read models up and stores each saga command and process step once', async () => {
    const readModelOptions = readModelStore(backlog.store.options);
    const readModelFile = (readModelOptions as { database: string }).database;
    const copy = `${readModelFile}.earlier`;
    const events = await TypeOrmEventStore.create(backlog.dataSource);
    let checkpoints = new TypeOrmCheckpointStore(backlog.readModels);

    const first = startChild(backlog.store, 10);
    backlog.children.push(first);
    await until(async () => (await checkpoints.load('shop-view')) > 0, 'the first projector batch', STEP_TIMEOUT_MS);
    await backlog.readModels.query(`VACUUM INTO '${copy}'`);
    const earlier = await checkpoints.loadAll();
    await untilCaughtUp(events, checkpoints);
    await killHard(first);
    expect((await checkpoints.load('shop-view')) > earlier.get('shop-view')!).toBe(true);

    await backlog.readModels.destroy();
    for (const suffix of ['-wal', '-shm']) rmSync(`${readModelFile}${suffix}`, { force: true });
    copyFileSync(copy, readModelFile);
    backlog.readModels = await openDataSource(readModelOptions);
    checkpoints = new TypeOrmCheckpointStore(backlog.readModels);
    expect(await checkpoints.load('shop-view')).toBe(earlier.get('shop-view'));

    await restartUntilCaughtUp(backlog, events, checkpoints);
    await expectEachHandledOnce(events, backlog.readModels);
  }, 180_000);
});
