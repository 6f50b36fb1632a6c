import type { INestApplication, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { DataSource } from 'typeorm';
import { AggregateReader, CommandGateway, EventSourcingModule, type EventSourcingModuleOptions } from '@nest-es/core';
import { SNAPSHOT_STORE } from '@nest-es/core/internal';
import { type SnapshotStore } from '@nest-es/core/adapter';
import { EVENT_SOURCING_DATA_SOURCE, typeorm } from '@nest-es/typeorm';
import { CapturingLogger } from './support/capturing-logger.js';
import { Count, Milestone, tallyAggregate } from './support/tally.aggregate.js';
import { createTestStore, type TestStore } from './support/test-store.js';

let store: TestStore;
let app: INestApplication | undefined;

beforeAll(async () => {
  store = await createTestStore();
});

afterEach(async () => {
  await app?.close();
  app = undefined;
});

afterAll(async () => {
  await store.cleanup();
});

/** The module on the suite's store with one tally variant; the aggregate cache is off so every command loads from the store. */
async function boot(aggregate: Type, options: Partial<EventSourcingModuleOptions> = {}) {
  const logs = new CapturingLogger();
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options), aggregateCacheSize: 0, ...options })],
    providers: [aggregate],
  }).compile();
  const instance = moduleRef.createNestApplication({ logger: logs });
  await instance.init().catch(async (error: unknown) => {
    // A boot that fails has still opened the store.
    await instance.close();
    throw error;
  });
  app = instance;
  const snapshots = instance.get<SnapshotStore>(SNAPSHOT_STORE);
  const reader = instance.get(AggregateReader);
  const dataSource = instance.get<DataSource>(EVENT_SOURCING_DATA_SOURCE);
  return {
    gateway: instance.get(CommandGateway),
    logs,
    snapshots,
    state: async (id: string) => (await reader.state('tally', id)).state,
    /** Sequences of the stream's snapshots of a state version, newest first. */
    snapshotSequences: async (id: string, stateVersion = 1) => {
      const found: number[] = [];
      for (let bound: number | undefined; ; ) {
        const snapshot = await snapshots.loadLatest({ aggregateType: 'tally', aggregateId: id }, stateVersion, bound);
        if (snapshot === null) return found;
        found.push(snapshot.sequence);
        bound = snapshot.sequence - 1;
      }
    },
    corrupt: (id: string, sequence: number) =>
      dataSource.query(`UPDATE es_snapshots SET state = '{"total": ' WHERE aggregate_type = 'tally' AND aggregate_id = '${id}' AND sequence = ${sequence}`),
  };
}

const stream = (aggregateId: string) => ({ aggregateType: 'tally', aggregateId });

describe(`snapshots (${process.env.ES_TEST_DB})`, () => {
  it('takes one when an append crosses a multiple of `every`, at the sequence the append reached', async () => {
    const { gateway, snapshots, snapshotSequences } = await boot(tallyAggregate({ snapshot: { every: 5 } }));
    for (const count of [3, 4, 2, 1, 12]) await gateway.send(new Count('crossing', count));

    // 3 (none), 7 (crossed 5), 9 (none), 10 (reached 10), 22 (crossed 15 and 20: one snapshot).
    expect(await snapshotSequences('crossing')).toEqual([22, 10, 7]);
    expect((await snapshots.loadLatest(stream('crossing'), 1))?.state).toEqual({ total: 22, milestones: 0 });
  });

  it('takes one when an append carries an event of an `onEvents` type', async () => {
    const { gateway, snapshotSequences } = await boot(tallyAggregate({ snapshot: { onEvents: [Milestone] } }));
    await gateway.send(new Count('typed', 2));
    expect(await snapshotSequences('typed')).toEqual([]);

    await gateway.send(new Count('typed', 1, { milestone: true }));
    await gateway.send(new Count('typed', 3));
    expect(await snapshotSequences('typed')).toEqual([4]);
  });

  it('applies the module default unless the aggregate says otherwise', async () => {
    const byDefault = await boot(tallyAggregate(), { snapshots: { every: 2 } });
    await byDefault.gateway.send(new Count('default', 3));
    expect(await byDefault.snapshotSequences('default')).toEqual([3]);
    await app?.close();

    const optedOut = await boot(tallyAggregate({ snapshot: 'none' }), { snapshots: { every: 2 } });
    await optedOut.gateway.send(new Count('opted-out', 3));
    expect(await optedOut.snapshotSequences('opted-out')).toEqual([]);
  });

  it('fails the boot on a snapshot option that is not a positive whole number', async () => {
    await expect(boot(tallyAggregate({ snapshot: { every: 0 } }))).rejects.toThrow('snapshot.every must be a positive integer, got 0');
    await expect(boot(tallyAggregate(), { snapshots: { every: 10, retain: 1.5 } })).rejects.toThrow(
      'snapshot.retain must be a positive integer, got 1.5',
    );
  });

  it('keeps the newest `retain` snapshots', async () => {
    const { gateway, snapshotSequences } = await boot(tallyAggregate({ snapshot: { every: 1, retain: 2 } }));
    for (let i = 0; i < 5; i++) await gateway.send(new Count('retained', 1));
    expect(await snapshotSequences('retained')).toEqual([5, 4]);
  });

  it('persists the state a handler hands back, and later loads start from it plus the events after it', async () => {
    const { gateway, snapshots, state } = await boot(tallyAggregate({ snapshot: 'none' }));
    await gateway.send(new Count('client', 2));
    // The handed-back state carries a marker no applier produces: seeing it proves the load used the snapshot.
    await gateway.send(new Count('client', 1, { handBack: { marker: 'handed back' } }));
    expect(await snapshots.loadLatest(stream('client'), 1)).toMatchObject({
      sequence: 3,
      state: { total: 3, milestones: 0, marker: 'handed back' },
    });

    await gateway.send(new Count('client', 4));
    expect(await state('client')).toEqual({ total: 7, milestones: 0, marker: 'handed back' });
  });

  it('never fails a command because its snapshot cannot be written', async () => {
    const { gateway, logs, snapshotSequences, state } = await boot(tallyAggregate({ snapshot: 'none' }));
    // A BigInt cannot be stored as JSON: the save fails after the events committed.
    const result = await gateway.send(new Count('unwritable', 2, { handBack: { big: 10n } }));

    expect(result.sequence).toBe(2);
    expect(await state('unwritable')).toEqual({ total: 2, milestones: 0 });
    expect(await snapshotSequences('unwritable')).toEqual([]);
    expect(logs.warnings.some((line) => line.includes('tally/unwritable at 2 not saved'))).toBe(true);
  });

  it('ignores a snapshot of another state version and replaces it on the next save', async () => {
    const before = await boot(tallyAggregate({ stateVersion: 1, snapshot: { every: 5 } }));
    await before.gateway.send(new Count('versioned', 5, { handBack: { marker: 'version 1' } }));
    expect(await before.snapshotSequences('versioned', 1)).toEqual([5]);
    await app?.close();

    const after = await boot(tallyAggregate({ stateVersion: 2, snapshot: { every: 5 } }));
    expect(await after.state('versioned')).toEqual({ total: 5, milestones: 0 });
    await after.gateway.send(new Count('versioned', 1));
    expect(await after.snapshotSequences('versioned', 1)).toEqual([5]);

    await after.gateway.send(new Count('versioned', 4));
    expect(await after.snapshotSequences('versioned', 2)).toEqual([10]);
    expect(await after.snapshotSequences('versioned', 1)).toEqual([]);
    expect((await after.snapshots.loadLatest(stream('versioned'), 2))?.state).toEqual({ total: 10, milestones: 0 });
  });

  it('skips a snapshot that cannot be read for the one before it, then for the events, and the command succeeds', async () => {
    const { gateway, logs, snapshots, snapshotSequences, corrupt, state } = await boot(
      tallyAggregate({ snapshot: { every: 5, retain: 3 } }),
    );
    for (let i = 0; i < 3; i++) await gateway.send(new Count('damaged', 4));
    expect(await snapshotSequences('damaged')).toEqual([12, 8]);
    // A marker in the older snapshot shows which one a load started from.
    await snapshots.save({ stream: stream('damaged'), sequence: 8, stateVersion: 1, state: { total: 108, milestones: 0 }, takenAt: new Date() }, 3);

    await corrupt('damaged', 12);
    expect(await state('damaged')).toEqual({ total: 112, milestones: 0 });
    expect(logs.warnings.some((line) => line.includes('tally/damaged at sequence 12 cannot be read'))).toBe(true);

    await corrupt('damaged', 8);
    expect(await state('damaged')).toEqual({ total: 12, milestones: 0 });
    const result = await gateway.send(new Count('damaged', 1));
    expect(result.sequence).toBe(13);
    expect(await state('damaged')).toEqual({ total: 13, milestones: 0 });
  });
});
