import { Test } from '@nestjs/testing';
import { CommandGateway, EventSourcingModule, EVENT_STORE, type EventStore } from '@nest-es/core';
import { AddMany, CounterAggregate } from './support/counter.aggregate.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { useMergeApp } from './support/merge-app-suite.js';
import { typeorm } from '@nest-es/typeorm';

async function boot(store: TestStore) {
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options) })],
    providers: [CounterAggregate],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return app;
}

describe('command idempotency by command id', () => {
  let store: TestStore;

  beforeEach(async () => {
    store = await createTestStore();
  });

  afterEach(async () => {
    await store.cleanup();
  });

  it('answers a repeated command id with the first result, also after a restart, and appends nothing', async () => {
    let app = await boot(store);
    const first = await app.get(CommandGateway).send(new AddMany('idem', 3), { commandId: 'cmd-1' });
    expect(first).toMatchObject({ sequence: 3, duplicate: false });
    await app.close();

    app = await boot(store);
    const gateway = app.get(CommandGateway);
    const again = await gateway.send(new AddMany('idem', 3), { commandId: 'cmd-1' });
    expect(again).toMatchObject({ sequence: 3, duplicate: true, commandId: 'cmd-1' });
    expect(again.events.map((event) => [event.sequence, event.position, event.metadata.eventId])).toEqual(
      first.events.map((event) => [event.sequence, event.position, event.metadata.eventId]),
    );
    // The same id on another aggregate is another command.
    expect(await gateway.send(new AddMany('other', 1), { commandId: 'cmd-1' })).toMatchObject({ sequence: 1, duplicate: false });
    // Concurrent repeats of a new id store it once.
    const racing = await Promise.all(Array.from({ length: 10 }, () => gateway.send(new AddMany('idem', 2), { commandId: 'cmd-2' })));
    expect(new Set(racing.map((result) => result.sequence))).toEqual(new Set([5]));
    expect(racing.filter((result) => !result.duplicate)).toHaveLength(1);
    expect(await app.get<EventStore>(EVENT_STORE).streamSequence({ aggregateType: 'counter', aggregateId: 'idem' })).toBe(5);
    await app.close();
  });
});

describe('a Command-Id is tied to its command', () => {
  const suite = useMergeApp();

  const edit = (id: string, body: unknown, headers: Record<string, string | string[]>) => {
    // An array value goes out as the header repeated, one line per value.
    return suite.http
      .post(`/commands/document/${id}/EditDocument`)
      .set(headers as Record<string, string>)
      .send(body as object);
  };
  const stored = async (id: string) => (await suite.http.get(`/aggregates/document/${id}/events`)).body.events ?? [];

  it('answers the same command again with its first result, whatever the key order of the body', async () => {
    const first = await edit('fp1', { text: 'hello', documentId: 'fp1' }, { 'Command-Id': 'fp-a' });
    const again = await edit('fp1', { documentId: 'fp1', text: 'hello' }, { 'Command-Id': 'fp-a' });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body).toEqual(first.body);
    // The repeat says it is one: the first answer does not.
    expect([first.headers['idempotent-replayed'], again.headers['idempotent-replayed']]).toEqual([undefined, 'true']);
    expect(await stored('fp1')).toHaveLength(1);
  });

  it('refuses the id with another payload: 409 ALREADY_EXISTS, nothing stored', async () => {
    await edit('fp2', { text: 'original' }, { 'Command-Id': 'fp-b' }).expect(200);
    const reused = await edit('fp2', { text: 'something else' }, { 'Command-Id': 'fp-b' });
    expect(reused.status).toBe(409);
    expect(reused.body).toMatchObject({ statusCode: 409, code: 'ALREADY_EXISTS', commandId: 'fp-b' });
    expect(reused.body.message).toMatch(/already used on document\/fp2 for another command/);
    expect(await stored('fp2')).toHaveLength(1);
  });

  it('refuses a Command-Id header given twice with 400, instead of reading "a, b" as one id', async () => {
    const twice = await edit('fp3', { text: 'x' }, { 'Command-Id': ['one', 'two'] });
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({ code: 'INVALID_ARGUMENT', message: 'header command-id was given 2 times; give it once' });
    const correlation = await edit('fp3', { text: 'x' }, { 'Correlation-Id': ['one', 'two'] });
    expect(correlation.status).toBe(400);
    expect(await stored('fp3')).toHaveLength(0);
  });
});
