import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type pg from 'pg';
import type { DataSource } from 'typeorm';
import { CommandGateway, EventSourcingModule } from '@nest-es/core';
import { EVENT_SOURCING_DATA_SOURCE, typeorm } from '@nest-es/typeorm';
import { AddMany, CounterAggregate } from './support/counter.aggregate.js';
import { createTestStore, type TestStore } from './support/test-store.js';

/** Every statement sent on the store's pool (`pool.query` checks a client out too). */
function recordStatements(pool: pg.Pool): string[] {
  const sent: string[] = [];
  const record = (config: unknown) => {
    const text = typeof config === 'string' ? config : (config as { text?: string }).text;
    sent.push(String(text));
  };
  const wrapped = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const clientQuery = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
      record(config);
      return clientQuery(config, ...rest);
    };
  });
  return sent;
}

/**
 * What a command costs in round trips to PostgreSQL, counted on the store's pool: the command path's
 * budget (issue #14). A warm aggregate's command is its one `es_append`, which also carries the
 * wake-up for other instances; nothing else may slip in beside it (a separate NOTIFY, a re-read).
 */
describe('round trips per command on PostgreSQL', () => {
  let store: TestStore;
  let app: INestApplication;
  let gateway: CommandGateway;
  let sent: string[];

  beforeAll(async () => {
    store = await createTestStore();
    const moduleRef = await Test.createTestingModule({
      imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options) })],
      providers: [CounterAggregate],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    gateway = app.get(CommandGateway);
    const dataSource = app.get<DataSource>(EVENT_SOURCING_DATA_SOURCE);
    sent = recordStatements((dataSource.driver as unknown as { master: pg.Pool }).master);
  });

  afterAll(async () => {
    await app?.close();
    await store?.cleanup();
  });

  beforeEach(() => {
    sent.length = 0;
  });

  it('a warm aggregate: one es_append per command, the wake-up included', async () => {
    await gateway.send(new AddMany('warm', 1));
    sent.length = 0;
    for (let i = 0; i < 20; i++) await gateway.send(new AddMany('warm', 2));
    // The wake-up NOTIFY of a separate statement would have been sent right after each append.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sent).toHaveLength(20);
    expect(sent.every((text) => text.includes('es_append('))).toBe(true);
  });

  it('a cold aggregate: its snapshot and its events are read once, then appended to', async () => {
    await gateway.send(new AddMany('cold', 1));
    expect(sent.map((text) => text.match(/es_append|es_snapshots|es_events/)?.[0])).toEqual(['es_snapshots', 'es_events', 'es_append']);
  });

  it('a caller-given command id: looked up, then appended with its record', async () => {
    await gateway.send(new AddMany('warm', 1));
    sent.length = 0;
    await gateway.send(new AddMany('warm', 1), { commandId: 'given-1' });
    expect(sent.map((text) => text.match(/es_append|es_commands/)?.[0])).toEqual(['es_commands', 'es_append']);
  });
});
