import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { EVENT_STORE, type EventStore } from '@nest-es/core';
import { gateEntered, openGate } from './support/gate.js';
import { createMergeApp } from './support/merge-app.js';
import { ledgerViolations, type CommandOutcome } from './support/player-ledger.js';
import { createTestStore, type TestStore } from './support/test-store.js';

/**
 * Two application instances on one database (in one process here; two processes in
 * merge-multi-process.pg.e2e-spec.ts): the append's uniqueness guard fires. A command that claimed
 * the sequence it was decided on goes through the merge pipeline, as it does for a stale
 * Expected-Sequence; a command that claimed none is decided again on the fresh state.
 */
describe('two instances racing on one database: the append conflict goes through the merge strategy', () => {
  let store: TestStore;
  let apps: INestApplication[];
  let a: ReturnType<typeof request>;
  let b: ReturnType<typeof request>;

  beforeAll(async () => {
    store = await createTestStore();
    apps = [await createMergeApp(store.options), await createMergeApp(store.options)];
    [a, b] = apps.map((app) => request(app.getHttpServer()));
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    await store.cleanup();
  });

  const send = (http: typeof a, type: string, id: string, command: string, body: object, expectedSequence?: number) => {
    const post = http.post(`/commands/${type}/${id}/${command}`);
    return (expectedSequence === undefined ? post : post.set('Expected-Sequence', String(expectedSequence))).send(body);
  };

  /** Holds `held` on instance A between its load and its append while `racer` runs on instance B, then lets A append. */
  async function race(gate: string, held: () => request.Test, racer: () => request.Test) {
    const pending = held().then((res) => res); // supertest sends on then()
    await gateEntered(gate);
    const raced = await racer();
    expect(raced.status).toBe(200);
    openGate(gate);
    return pending;
  }

  it('COMMUTATIVE: the loser of the append re-decides on the fresh state when the fields are disjoint', async () => {
    await send(a, 'profile', 'r1', 'CreateProfile', { name: 'Al' });
    const held = await race(
      'r1-city',
      () => send(a, 'profile', 'r1', 'SetCity', { city: 'Lima', gate: 'r1-city' }, 1),
      () => send(b, 'profile', 'r1', 'SetStreet', { street: 'Jr. Union' }),
    );
    expect(held.status).toBe(200);
    expect(held.body).toMatchObject({ sequence: 3, events: [{ type: 'CityChanged', sequence: 3 }] });
    expect((await b.get('/aggregates/profile/r1')).body.state.address).toEqual({ city: 'Lima', street: 'Jr. Union' });
  });

  it('COMMUTATIVE: the loser is refused with the sequence it decided on and the one it met when the fields overlap', async () => {
    const held = await race(
      'r1-city-2',
      () => send(a, 'profile', 'r1', 'SetCity', { city: 'Cusco', gate: 'r1-city-2' }, 3),
      () => send(b, 'profile', 'r1', 'SetCity', { city: 'Arequipa' }),
    );
    expect(held.status).toBe(412);
    expect(held.body).toMatchObject({ code: 'SEQUENCE_MISMATCH', expectedSequence: 3, actualSequence: 4, overlappingFields: ['address.city'] });
    expect((await a.get('/aggregates/profile/r1')).body).toMatchObject({ sequence: 4, state: { address: { city: 'Arequipa' } } });
  });

  it('STRICT: the loser is refused', async () => {
    await send(a, 'turn', 'r2', 'TakeTurn', { player: 'x' });
    const held = await race(
      'r2',
      () => send(a, 'turn', 'r2', 'TakeTurn', { player: 'y', gate: 'r2' }, 1),
      () => send(b, 'turn', 'r2', 'TakeTurn', { player: 'z' }),
    );
    expect(held.status).toBe(412);
    expect(held.body).toMatchObject({ expectedSequence: 1, actualSequence: 2 });
  });

  it('MANUAL: the loser is parked with both sequences', async () => {
    await send(a, 'document', 'r3', 'EditDocument', { text: 'v1' });
    const held = await race(
      'r3',
      () => send(a, 'document', 'r3', 'EditDocument', { text: 'v2 from A', gate: 'r3' }, 1),
      () => send(b, 'document', 'r3', 'EditDocument', { text: 'v2 from B' }),
    );
    expect(held.status).toBe(409);
    const letter = await b.get(`/dead-letters/${held.body.deadLetterId}`);
    expect(letter.body).toMatchObject({ status: 'pending', payload: { text: 'v2 from A' }, context: { expectedSequence: 1, actualSequence: 2 } });
  });

  it('without an Expected-Sequence the loser is decided again on the fresh state, whatever the strategy', async () => {
    await send(a, 'turn', 'r4', 'TakeTurn', { player: 'x' });
    const held = await race(
      'r4',
      () => send(a, 'turn', 'r4', 'TakeTurn', { player: 'y', gate: 'r4' }),
      () => send(b, 'turn', 'r4', 'TakeTurn', { player: 'z' }),
    );
    expect(held.status).toBe(200);
    expect(held.body).toMatchObject({ sequence: 3 });
  });

  it('a storm of player commands on both instances loses nothing and stores no sequence twice', async () => {
    const players = ['s1', 's2', 's3'];
    const outcomes = new Map<string, CommandOutcome[]>(players.map((id) => [id, []]));
    const sendTracked = async (http: typeof a, id: string, commandType: string, body: { amount?: number }, commandId: string) => {
      const res = await http.post(`/commands/player/${id}/${commandType}`).set('Command-Id', commandId).send(body);
      outcomes.get(id)!.push({ commandId, commandType, amount: body.amount, outcome: res.status === 200 ? 'stored' : String(res.body.code) });
    };
    for (const id of players) {
      await send(a, 'player', id, 'RegisterPlayer', { displayName: id, email: `${id}@example.com` });
      await sendTracked(a, id, 'DepositFunds', { amount: 1000 }, `${id}-seed`);
    }
    const sends: Promise<void>[] = [];
    for (let i = 0; i < 60; i++) {
      const id = players[i % players.length];
      const http = i % 2 === 0 ? a : b;
      const commandType = ['DepositFunds', 'WithdrawFunds', 'RenamePlayer'][i % 3 === 0 ? 2 : i % 2];
      const body = commandType === 'RenamePlayer' ? { displayName: `n${i}` } : { amount: 10 + i };
      sends.push(sendTracked(http, id, commandType, body, `${id}-${i}`));
    }
    await Promise.all(sends);

    const events = apps[0].get<EventStore>(EVENT_STORE);
    for (const id of players) {
      const stored = await events.readStream({ aggregateType: 'player', aggregateId: id });
      const [viewA, viewB] = await Promise.all([a.get(`/aggregates/player/${id}`), b.get(`/aggregates/player/${id}`)]);
      expect(viewB.body).toEqual(viewA.body);
      expect(viewA.body.sequence).toBe(stored.length);
      expect(ledgerViolations(stored, outcomes.get(id)!, viewA.body.state.bankroll)).toEqual([]);
    }
  });
});
