import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { CommandGateway, EventSourcingModule, OnEvent, Projector } from '@nest-es/core';
import { EventSourcingHttpModule } from '@nest-es/http';
import { typeorm } from '@nest-es/typeorm';
import { MeterAggregate, MeterRead, Read } from './support/console-app.js';
import { createHttpApp } from './support/http-adapter.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { until } from './support/until.js';

/** Handles nothing until `open` is called: its checkpoint stays where it was, so the store's head runs ahead of it. */
@Projector('gated-totals')
class GatedProjector {
  private opened!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.opened = resolve));
  handled = 0;

  open(): void {
    this.opened();
  }

  @OnEvent(MeterRead)
  async onRead(): Promise<void> {
    await this.gate;
    this.handled++;
  }
}

const LAG = /^es_subscriber_lag_events\{subscriber="gated-totals",kind="projector"\} (\d+)$/m;
const READS = 8;

describe.each([
  ['one checkpoint', {}],
  ['scale-out, three partitions (a checkpoint each)', { scaleOut: { partitions: 3, rebalanceIntervalMs: 100 } }],
])('GET /metrics: a subscriber lag, %s', (_name, processing) => {
  let store: TestStore;
  let app: INestApplication;
  const lag = async (): Promise<number> => {
    const scraped = await request(app.getHttpServer()).get('/metrics');
    expect(scraped.status).toBe(200);
    return Number(LAG.exec(scraped.text)?.[1]);
  };

  beforeAll(async () => {
    store = await createTestStore();
    const moduleRef = await Test.createTestingModule({
      imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options), metrics: true, processing: { pollIntervalMs: 50, ...processing } }), EventSourcingHttpModule.forRoot()],
      providers: [MeterAggregate, GatedProjector],
    }).compile();
    app = await createHttpApp(moduleRef, 'express');
  });

  afterAll(async () => {
    await app?.close();
    await store?.cleanup();
  });

  it('counts the events the projector has not passed while it is held up, and drops to 0 once it caught up', async () => {
    expect(await lag()).toBe(0);
    const gateway = app.get(CommandGateway);
    let head = 0;
    for (let i = 0; i < READS; i++) head = (await gateway.send(new Read(`meter-${i}`, i))).events[0].position;

    // Held at its first event: every partition's checkpoint is behind the head.
    const behind = await lag();
    expect(behind).toBeGreaterThan(0);
    expect(behind).toBeLessThanOrEqual(head);

    app.get(GatedProjector).open();
    await until(() => app.get(GatedProjector).handled === READS, 'the projector to handle every reading');
    // A partition whose last events were another's saves its position past them once it is idle.
    await until(async () => (await lag()) === 0, 'the lag to drop to 0');
  });
});
