import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { CommandGateway } from '@nest-es/core';
import { EventProcessor } from '@nest-es/core/internal';
import { ADMIN_TOKEN, MeterTotalsProjector, Read, startConsoleApp } from './support/console-app.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { until } from './support/until.js';

const scaleOut = { scaleOut: { partitions: 2, rebalanceIntervalMs: 100 } };

interface CheckpointView {
  checkpoint: string;
  owner: { instance: number | null; runsHere: boolean };
  held: Array<{ position: number; attempts?: number; lastError?: string }>;
}

/** Two instances on one PostgreSQL store, the console's subscriber partitions shared between them. */
describe('the operator console under scale-out (PostgreSQL)', () => {
  let store: TestStore;
  const apps: INestApplication[] = [];
  const admin = (app: INestApplication) => ({
    get: (path: string) => request(app.getHttpServer()).get(path).set('Authorization', `Bearer ${ADMIN_TOKEN}`),
    post: (path: string) => request(app.getHttpServer()).post(path).set('Authorization', `Bearer ${ADMIN_TOKEN}`),
  });
  const report = async (app: INestApplication) => (await admin(app).get('/console/api/subscribers')).body;
  const checkpoints = async (app: INestApplication): Promise<CheckpointView[]> => (await report(app)).subscribers[0].checkpoints;

  beforeAll(async () => {
    store = await createTestStore();
    for (let i = 0; i < 2; i++) apps.push((await startConsoleApp(store.options, 'express', { processing: scaleOut })).app);
    await until(() => apps.every((app) => app.get(EventProcessor).runningPartitions().length === 1), 'each instance to run one partition');
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    await store?.cleanup();
  });

  it('shows each partition with its owner as the coordinator assigns it, and answers retry-now only where it runs (409 naming the owner elsewhere)', async () => {
    for (const app of apps) app.get(MeterTotalsProjector).failing = true;
    const bad = await apps[0].get(CommandGateway).send(new Read('bad', 5));
    const position = bad.events[0].position;
    await until(async () => (await checkpoints(apps[0])).some((c) => c.held.length === 1), 'the event to be held');

    const [first, second] = await Promise.all(apps.map(report));
    expect(first.instances.live).toEqual(second.instances.live);
    expect(first.instances.self).not.toBe(second.instances.self);
    for (const seen of [first, second]) {
      expect(seen.scaleOut).toBe(true);
      const views: CheckpointView[] = seen.subscribers[0].checkpoints;
      expect(views.map((view) => view.checkpoint)).toEqual(['meter-totals#0/2', 'meter-totals#1/2']);
      // Unit i to live instance i mod n; each instance runs exactly the units assigned to it.
      views.forEach((view, index) => expect(view.owner).toEqual({ instance: seen.instances.live[index % 2], runsHere: seen.instances.live[index % 2] === seen.instances.self }));
    }

    const held = (await checkpoints(apps[0])).find((view) => view.held.length === 1)!;
    const owner = apps[first.instances.self === held.owner.instance ? 0 : 1];
    const other = apps[owner === apps[0] ? 1 : 0];
    const ownerSlot = held.owner.instance;
    await until(async () => (await checkpoints(owner)).find((view) => view.checkpoint === held.checkpoint)!.held[0].lastError !== undefined, 'the owner to know the error');
    expect((await checkpoints(other)).find((view) => view.checkpoint === held.checkpoint)!.held[0].attempts).toBeUndefined();

    const refused = await admin(other).post('/console/api/subscribers/held/retry').send({ checkpoint: held.checkpoint, position });
    expect([refused.status, refused.body.code, refused.body.ownerInstance]).toEqual([409, 'FAILED_PRECONDITION', ownerSlot]);
    expect(refused.body.message).toMatch(new RegExp(`^meter-totals#\\d/2 runs on instance ${ownerSlot}, not on this one \\(instance \\d+\\): retry it there$`));

    for (const app of apps) app.get(MeterTotalsProjector).failing = false;
    const retried = await admin(owner).post('/console/api/subscribers/held/retry').send({ checkpoint: held.checkpoint, position });
    expect([retried.status, retried.body.requestedBy]).toEqual([200, 'operator-olga']);
    await until(async () => (await checkpoints(owner)).every((view) => view.held.length === 0), 'the held event to be released');
  });
});
