import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { CommandGateway, EVENT_STORE, EventSourcingModule, NotFoundError, type EventStore } from '@nest-es/core';
import { SNAPSHOT_STORE, SnapshotRebuilder, type RebuildProgress } from '@nest-es/core/internal';
import { type SnapshotStore } from '@nest-es/core/adapter';
import { CapturingLogger } from './support/capturing-logger.js';
import { AddMany, CounterAggregate } from './support/counter.aggregate.js';
import { Count, tallyAggregate } from './support/tally.aggregate.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { typeorm } from '@nest-es/typeorm';

let store: TestStore;
let app: INestApplication;
let gateway: CommandGateway;
let rebuilder: SnapshotRebuilder;
let snapshots: SnapshotStore;
let events: EventStore;
const logs = new CapturingLogger();

beforeAll(async () => {
  store = await createTestStore();
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options) })],
    providers: [tallyAggregate({ snapshot: { every: 1000, retain: 2 } }), CounterAggregate],
  }).compile();
  app = moduleRef.createNestApplication({ logger: logs });
  await app.init();
  gateway = app.get(CommandGateway);
  rebuilder = app.get(SnapshotRebuilder);
  snapshots = app.get<SnapshotStore>(SNAPSHOT_STORE);
  events = app.get<EventStore>(EVENT_STORE);
});

afterAll(async () => {
  await app?.close();
  await store?.cleanup();
});

const tally = (aggregateId: string) => ({ aggregateType: 'tally', aggregateId });

describe(`snapshot rebuild (${process.env.ES_TEST_DB})`, () => {
  it('replaces every snapshot of a type with one built from the events alone, and reports what it did', async () => {
    await gateway.send(new Count('a', 3));
    await gateway.send(new Count('b', 6, { milestone: true }));
    await gateway.send(new Count('c', 1));
    await gateway.send(new AddMany('other-type', 2));
    // A wrong snapshot (as an applier bug would have left): the rebuild must not start from it, nor keep it.
    await snapshots.save({ stream: tally('a'), sequence: 2, stateVersion: 1, state: { total: 99, milestones: 9 }, takenAt: new Date() }, 2);

    expect(await rebuilder.count('tally')).toBe(3);
    const progress: RebuildProgress[] = [];
    const summary = await rebuilder.rebuild('tally', (step) => progress.push(step));

    expect(summary).toMatchObject({ aggregateType: 'tally', aggregates: 3, eventsReplayed: 11, snapshotsWritten: 3, failed: 0 });
    expect(typeof summary.durationMs).toBe('number');
    expect(progress.map((step) => step.aggregates)).toEqual([1, 2, 3]);
    expect(progress[2]).toEqual({ aggregates: 3, eventsReplayed: 11, snapshotsWritten: 3, failed: 0 });
    expect(await snapshots.loadLatest(tally('a'), 1)).toMatchObject({ sequence: 3, state: { total: 3, milestones: 0 } });
    expect(await snapshots.loadLatest(tally('a'), 1, 2)).toBeNull();
    expect(await snapshots.loadLatest(tally('b'), 1)).toMatchObject({ sequence: 7, state: { total: 6, milestones: 1 } });
    expect(await snapshots.loadLatest(tally('c'), 1)).toMatchObject({ sequence: 1, state: { total: 1, milestones: 0 } });
    expect(await snapshots.loadLatest({ aggregateType: 'counter', aggregateId: 'other-type' }, 1)).toBeNull();
  });

  it('refuses an unknown aggregate type with NOT_FOUND naming the known ones', async () => {
    const error = await rebuilder.rebuild('nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toContain("unknown aggregate type 'nope'; known: tally, counter");
    await expect(rebuilder.count('nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('goes on past an aggregate it cannot replay, leaving that one as it was', async () => {
    const broken = `broken-${randomUUID()}`;
    await gateway.send(new Count(broken, 2));
    await snapshots.save({ stream: tally(broken), sequence: 2, stateVersion: 1, state: { total: 2, milestones: 0 }, takenAt: new Date() }, 2);
    // An event no @Apply knows, as a newer version of the app might have stored.
    await events.append({
      stream: tally(broken),
      expectedSequence: 2,
      events: [{ type: 'Recounted', payload: {}, metadata: { eventId: randomUUID(), commandId: null, correlationId: 'c', causationId: null } }],
    });

    const summary = await rebuilder.rebuild('tally');

    expect(summary).toMatchObject({ aggregates: 4, snapshotsWritten: 3, failed: 1 });
    expect(logs.errors.some((line) => line.includes(`tally/${broken} not rebuilt`) && line.includes('Recounted'))).toBe(true);
    expect(await snapshots.loadLatest(tally(broken), 1)).toMatchObject({ sequence: 2, state: { total: 2, milestones: 0 } });
  });

  it('pages through more aggregates than fit one page', async () => {
    const ids = Array.from({ length: 1001 }, (_, i) => `many-${String(i).padStart(4, '0')}`);
    await Promise.all(ids.map((id) => gateway.send(new Count(id, 1))));
    const before = await rebuilder.count('tally');

    const summary = await rebuilder.rebuild('tally');

    // With the four aggregates of the tests above, one of them unreplayable.
    expect(before).toBe(1005);
    expect(summary).toMatchObject({ aggregates: 1005, snapshotsWritten: 1004, failed: 1 });
    for (const id of [ids[0], ids[499], ids[500], ids[1000]]) {
      expect(await snapshots.loadLatest(tally(id), 1)).toMatchObject({ sequence: 1, state: { total: 1 } });
    }
  });
});
