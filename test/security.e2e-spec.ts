import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JwtService } from '@nestjs/jwt';
import { AggregateReader, EVENT_STORE, type EventStore } from '@nest-es/core';
import request from 'supertest';
import type { PokerClient } from '../apps/poker/src/client/poker-client.js';
import type { HandState } from '../apps/poker/src/hand/index.js';
import type { PokerServer } from './support/poker-server.js';
import type { Test as Request } from 'supertest';
import { startPokerServer } from './support/poker-server.js';
import { startPokerProcess, stopPokerProcess } from './support/poker-process.js';
import { createTestStore, type TestStore } from './support/test-store.js';

const ADMIN_TOKEN = 'operator-token-for-the-security-suite';

/**
 * The attacks an outsider and a signed-in player try against the running poker app, each refused
 * with its code, nothing stored and nothing leaked. Ann and Bob sit at one table with a hand running;
 * Ann is the attacker unless said otherwise.
 */
describe('security: the poker app keeps its secrets and its chips', () => {
  let store: TestStore;
  let server: PokerServer;
  let client: PokerClient;
  let http: ReturnType<typeof request>;
  let tableId: string;
  let handId: string;
  let hand: HandState;
  const ann = 'ann';
  const bob = 'bob';

  beforeAll(async () => {
    store = await createTestStore();
    server = await startPokerServer(store.options, { auth: { adminToken: ADMIN_TOKEN } });
    client = server.client;
    http = request(server.app.getHttpServer());
    tableId = 'sec-table';
    await client.createTable(tableId, { name: 'Sec', variant: 'TEXAS_HOLDEM', smallBlind: 5, bigBlind: 10, minBuyIn: 100, maxBuyIn: 1000, maxPlayers: 6 });
    for (const id of [ann, bob]) {
      await client.registerPlayer(id, id.toUpperCase());
      expect(await client.buyIn(tableId, id, 500)).toMatchObject({ status: 'COMPLETED' });
    }
    ({ handId } = await client.startHand(tableId, undefined, ann));
    hand = (await server.app.get(AggregateReader).state('hand', handId)).state as HandState;
  });

  afterAll(async () => {
    await server?.app.close();
    await store?.cleanup();
  });

  const as = (id: string) => ({ Authorization: `Bearer ${client.tokenOf(id)}` });
  const head = async () => server.app.get<EventStore>(EVENT_STORE).headPosition();
  const bankroll = async (id: string) => (await client.balance(id)).bankroll;
  const cardsOf = (id: string) => hand.players.find((p) => p.playerId === id)!.holeCards;
  const command = (aggregateType: string, id: string, commandType: string, body: object, headers: Record<string, string> = {}) =>
    http.post(`/commands/${aggregateType}/${id}/${commandType}`).set(headers).send(body);

  /** The answer has this status and code, and the store did not move. */
  async function refused(call: () => Promise<request.Response>, status: number, code: string): Promise<request.Response> {
    const before = await head();
    const res = await call();
    expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
    expect(res.body.statusCode).toBe(status);
    expect(await head()).toBe(before);
    return res;
  }

  describe('minting chips with internal commands', () => {
    it('cannot reserve funds for a fake table and settle a million back (404: not routable)', async () => {
      const before = await bankroll(ann);
      await refused(() => command('player', ann, 'ReserveFunds', { amount: 100, tableId: 'fake' }, as(ann)), 404, 'NOT_FOUND');
      await refused(() => command('player', ann, 'SettleTableSession', { tableId: 'fake', cashOut: 1_000_000 }, as(ann)), 404, 'NOT_FOUND');
      expect(await bankroll(ann)).toBe(before);
    });

    it.each([
      ['player', 'DepositFunds', { amount: 1_000_000 }],
      ['player', 'RegisterPlayer', { displayName: 'X', email: 'x@example.com' }],
      ['player', 'ReleaseFunds', { tableId: 'sec-table' }],
      ['table', 'JoinTable', { playerId: 'ann', seat: 5, buyIn: 1000 }],
      ['table', 'EndHand', { handId: 'h', stackChanges: { ann: 1_000_000 } }],
      ['hand', 'AwardPot', { awards: [{ playerId: 'ann', amount: 1_000_000 }] }],
      ['hand', 'DealCards', { tableId: 'x', handNumber: 1, variant: 'TEXAS_HOLDEM', players: [], dealerPosition: 0, smallBlind: 1, bigBlind: 2 }],
      ['hand', 'PostBlind', { playerId: 'ann', blindType: 'small', amount: 5 }],
      ['hand', 'DealCommunityCards', { count: 3 }],
    ])('refuses the internal %s command %s by name exactly like an unknown one', async (aggregateType, commandType, body) => {
      const target = aggregateType === 'player' ? ann : aggregateType === 'table' ? tableId : handId;
      const res = await refused(() => command(aggregateType, target, commandType, body, as(ann)), 404, 'NOT_FOUND');
      const unknown = await command(aggregateType, target, 'NoSuchCommand', body, as(ann));
      expect(res.body.message).toBe(unknown.body.message.replace('NoSuchCommand', commandType));
    });

    it('cannot buy in another player, or read their balance', async () => {
      await refused(() => http.post(`/tables/${tableId}/buy-in`).set(as(ann)).send({ playerId: bob, seat: -1, amount: 100 }), 403, 'PERMISSION_DENIED');
      await refused(() => http.get(`/players/${bob}/balance`).set(as(ann)), 403, 'PERMISSION_DENIED');
      await refused(() => http.get(`/players/${bob}/balance`), 401, 'UNAUTHENTICATED');
    });
  });

  describe('acting as someone else', () => {
    it('cannot withdraw from or rename another player (403), nor anyone without a token (401)', async () => {
      await refused(() => command('player', bob, 'WithdrawFunds', { amount: 1 }, as(ann)), 403, 'PERMISSION_DENIED');
      await refused(() => command('player', bob, 'RenamePlayer', { displayName: 'Mallory' }, as(ann)), 403, 'PERMISSION_DENIED');
      await refused(() => command('player', bob, 'WithdrawFunds', { amount: 1 }), 401, 'UNAUTHENTICATED');
    });

    it('cannot fold, draw or reveal for the player to act', async () => {
      const victim = hand.actionOn === ann ? bob : hand.actionOn!;
      const attacker = victim === ann ? bob : ann;
      await refused(() => command('hand', handId, 'PlayerAction', { playerId: victim, action: 'FOLD' }, as(attacker)), 403, 'PERMISSION_DENIED');
      await refused(() => command('hand', handId, 'RevealCards', { playerId: victim }, as(attacker)), 403, 'PERMISSION_DENIED');
      await refused(() => command('hand', handId, 'PlayerAction', { playerId: victim, action: 'FOLD' }), 401, 'UNAUTHENTICATED');
    });

    it('cannot start a hand at a table without a seat there, nor choose the deck', async () => {
      await client.registerPlayer('eve', 'Eve');
      await refused(() => command('table', tableId, 'StartHand', {}, as('eve')), 403, 'PERMISSION_DENIED');
      await refused(() => command('table', tableId, 'LeaveTable', { playerId: ann }, as('eve')), 403, 'PERMISSION_DENIED');
      // As herself she may send LeaveTable; the table refuses it: she has no seat to leave.
      await refused(() => command('table', tableId, 'LeaveTable', { playerId: 'eve' }, as('eve')), 409, 'FAILED_PRECONDITION');
    });

    it('refuses a token of A on B, an expired token, a forged one and a tampered one (401)', async () => {
      const jwt = server.app.get(JwtService);
      const expired = await jwt.signAsync({ sub: ann, iat: Math.floor(Date.now() / 1000) - 120 }, { expiresIn: 60 });
      const forged = await new JwtService({ secret: 'not-the-server-secret' }).signAsync({ sub: ann });
      const [header, , signature] = client.tokenOf(ann)!.split('.');
      const tampered = `${header}.${Buffer.from(JSON.stringify({ sub: bob, playerType: 'HUMAN' })).toString('base64url')}.${signature}`;
      const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: bob })).toString('base64url')}.`;
      for (const [token, message] of [
        [expired, 'the token has expired; sign in again'],
        [forged, 'the token is not valid'],
        [tampered, 'the token is not valid'],
        [unsigned, 'the token is not valid'],
      ]) {
        const res = await refused(() => command('player', bob, 'WithdrawFunds', { amount: 1 }, { Authorization: `Bearer ${token}` }), 401, 'UNAUTHENTICATED');
        expect(res.body.message).toBe(message);
      }
      const wrongScheme = await refused(() => command('player', ann, 'WithdrawFunds', { amount: 1 }, { Authorization: `Basic ${client.tokenOf(ann)}` }), 401, 'UNAUTHENTICATED');
      expect(wrongScheme.body.message).toMatch(/Bearer <token>/);
    });

    it('lets a player act as themselves, and records who did it on the event', async () => {
      const res = await command('player', ann, 'RenamePlayer', { displayName: 'Annie' }, { ...as(ann), 'Sync-Mode': 'simple' });
      expect(res.status).toBe(200);
      const [renamed] = await server.app.get<EventStore>(EVENT_STORE).readStream({ aggregateType: 'player', aggregateId: ann }, { afterSequence: res.body.sequence - 1 });
      expect(renamed.metadata).toMatchObject({ principal: ann });
    });
  });

  describe('reading the cards', () => {
    it('never sends the deck or its seed, and only the reader\'s own hole cards, through GET /aggregates/hand', async () => {
      const mine = await http.get(`/aggregates/hand/${handId}`).set(as(ann));
      expect(mine.status).toBe(200);
      expect(mine.body.state).not.toHaveProperty('deck');
      expect(mine.body.state).not.toHaveProperty('seed');
      const players = mine.body.state.players as Array<{ playerId: string; holeCards: string[] | null }>;
      expect(players.find((p) => p.playerId === ann)!.holeCards).toEqual(cardsOf(ann));
      expect(players.find((p) => p.playerId === bob)!.holeCards).toBeNull();
      expect(JSON.stringify(mine.body)).not.toContain(JSON.stringify(cardsOf(bob)));
      await refused(() => http.get(`/aggregates/hand/${handId}`), 401, 'UNAUTHENTICATED');
      await refused(() => http.get(`/aggregates/hand/${handId}/events`).set(as(ann)), 404, 'NOT_FOUND');
    });

    it('ignores ?viewer= on the table view: the cards shown are the signed-in player\'s, anonymous readers get none', async () => {
      const anonymous = await http.get(`/tables/${tableId}?viewer=${bob}`);
      expect(anonymous.status).toBe(200);
      expect(anonymous.body.yourCards).toBeNull();
      const signed = await http.get(`/tables/${tableId}?viewer=${bob}`).set(as(ann));
      expect(signed.body.yourCards).toEqual(cardsOf(ann));
      expect(JSON.stringify(signed.body)).not.toContain(JSON.stringify(cardsOf(bob)));
    });

    it('keeps a player record (email, bankroll) and its events to its owner', async () => {
      await refused(() => http.get(`/aggregates/player/${bob}`).set(as(ann)), 403, 'PERMISSION_DENIED');
      await refused(() => http.get(`/aggregates/player/${bob}/events`).set(as(ann)), 403, 'PERMISSION_DENIED');
      const own = await http.get(`/aggregates/player/${ann}`).set(as(ann));
      expect(own.body.state).toMatchObject({ email: `${ann}@poker.example` });
    });

    it('leaks nobody\'s hole cards, deck or email through any GET route the OpenAPI document lists', async () => {
      const document = (await http.get('/docs-json')).body as { paths: Record<string, Record<string, unknown>> };
      const ids: Record<string, string> = { tableId, handId, playerId: bob, aggregateId: handId, aggregateType: 'hand', id: 'x' };
      const getPaths = Object.entries(document.paths).filter(([, operations]) => 'get' in operations).map(([path]) => path);
      expect(getPaths).toEqual(expect.arrayContaining(['/tables/{tableId}', '/aggregates/{aggregateType}/{aggregateId}']));
      const secrets = [JSON.stringify(cardsOf(bob)), JSON.stringify(hand.deck.slice(0, 3)).slice(1, -1), `${bob}@poker.example`];
      for (const path of getPaths) {
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? 'x'));
        for (const aggregateType of path.includes('{aggregateType}') ? ['hand', 'player', 'table'] : ['']) {
          const concrete = aggregateType ? url.replace('/hand/', `/${aggregateType}/`).replace(handId, aggregateType === 'player' ? bob : aggregateType === 'table' ? tableId : handId) : url;
          for (const headers of [{}, as(ann)]) {
            const res = await firstAnswer(http.get(concrete).set(headers));
            expect(res.status).toBeLessThan(500);
            for (const secret of secrets) expect({ route: concrete, leaked: String(res.body).includes(secret) }).toEqual({ route: concrete, leaked: false });
          }
        }
      }
    });
  });

  describe('operator routes', () => {
    it('keeps the dead letters from players (403) and outsiders (401); the operator gets them', async () => {
      await refused(() => http.get('/dead-letters').set(as(ann)), 403, 'PERMISSION_DENIED');
      await refused(() => http.get('/dead-letters'), 401, 'UNAUTHENTICATED');
      await refused(() => http.post('/dead-letters/some-id/discard').set(as(ann)).send({}), 403, 'PERMISSION_DENIED');
      const operator = await http.get('/dead-letters').set({ Authorization: `Bearer ${ADMIN_TOKEN}` });
      expect(operator.status).toBe(200);
      expect(operator.body).toEqual({ deadLetters: expect.any(Array) });
    });
  });

  describe('the browser as an attack path', () => {
    it('refuses a cross-site form post of RenamePlayer (403 for a foreign origin, with or without the token; 415 for a form), storing nothing', async () => {
      const form = () => command('player', ann, 'RenamePlayer', {}, { Origin: 'https://evil.example' }).type('form').send('displayName=pwned');
      await refused(form, 403, 'PERMISSION_DENIED');
      await refused(
        () => http.post(`/commands/player/${ann}/RenamePlayer`).set({ ...as(ann), Origin: 'https://evil.example' }).type('form').send('displayName=pwned'),
        403,
        'PERMISSION_DENIED',
      );
      await refused(
        () => http.post(`/commands/player/${ann}/RenamePlayer`).set(as(ann)).type('form').send('displayName=pwned'),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
      await refused(
        () => http.post(`/commands/player/${ann}/RenamePlayer`).set({ ...as(ann), 'Content-Type': 'text/plain' }).send('{"displayName":"pwned"}'),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
      expect((await http.get(`/aggregates/player/${ann}`).set(as(ann))).body.state.displayName).not.toBe('pwned');
    });

    it('sends security headers and no X-Powered-By, and grants no foreign origin', async () => {
      const res = await http.get('/leaderboard').set('Origin', 'https://evil.example');
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'no-referrer',
        'content-security-policy': expect.stringContaining("default-src 'self'"),
      });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await http.options(`/commands/player/${ann}/RenamePlayer`).set({ Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' });
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('filling the dead-letter table', () => {
    it('cannot park a command by choosing manual, nor pad one with undeclared fields, nor send prototype keys to the app routes', async () => {
      const letters = async () => (await http.get('/dead-letters?kind=command').set({ Authorization: `Bearer ${ADMIN_TOKEN}` })).body.deadLetters.length;
      const before = await letters();
      const stale = { ...as(ann), 'Expected-Sequence': '0' };
      const manual = await refused(() => command('player', ann, 'RenamePlayer', { displayName: 'Ann 2' }, { ...stale, 'Merge-Strategy': 'manual' }), 400, 'INVALID_ARGUMENT');
      expect(manual.body.message).toMatch(/does not let its caller choose the merge strategy 'manual'/);
      const padded = await refused(() => command('player', ann, 'RenamePlayer', { displayName: 'Ann 2', pad: 'x'.repeat(90_000) }, as(ann)), 400, 'INVALID_ARGUMENT');
      expect(padded.body.message).toMatch(/RenamePlayer has no field 'pad'/);
      expect(await letters()).toBe(before);
      for (const body of ['{"displayName":{"constructor":1}}', `{"displayName":"Deep","x":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`]) {
        await refused(() => http.post('/auth/register').set('Content-Type', 'application/json').send(body), 400, 'INVALID_ARGUMENT');
        await refused(() => http.post(`/tables/${tableId}/buy-in`).set({ ...as(ann), 'Content-Type': 'application/json' }).send(body), 400, 'INVALID_ARGUMENT');
      }
    });
  });

  describe('flooding', () => {
    it('answers past the rate limit of the built server with 429 RESOURCE_EXHAUSTED', async () => {
      const folder = mkdtempSync(join(tmpdir(), 'poker-rate-'));
      const server = await startPokerProcess(`sqlite:${join(folder, 'rate.sqlite')}`, { POKER_REQUESTS_PER_MINUTE: '5' });
      try {
        const statuses: number[] = [];
        let last: { statusCode?: number; code?: string } = {};
        for (let i = 0; i < 7; i++) {
          const res = await fetch(`${server.url}/leaderboard`);
          statuses.push(res.status);
          last = (await res.json()) as typeof last;
        }
        expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
        expect(last).toMatchObject({ statusCode: 429, code: 'RESOURCE_EXHAUSTED' });
      } finally {
        await stopPokerProcess(server);
        rmSync(folder, { recursive: true, force: true });
      }
    });
  });
});

/**
 * The answer's text as the body; a live stream (server-sent events), which never ends by itself,
 * answers with its first event.
 */
function firstAnswer(req: Request) {
  return req.buffer(true).parse((res, done) => {
    let text = '';
    let answered = false;
    const answer = () => {
      if (!answered) done(null, text);
      answered = true;
    };
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      text += chunk;
      if (String(res.headers['content-type']).startsWith('text/event-stream') && text.includes('\n\n')) {
        answer();
        (res as unknown as { destroy(): void }).destroy();
      }
    });
    res.on('end', answer);
  });
}
