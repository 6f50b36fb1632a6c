// What the poker app's own routes refuse before any work: ids no store can hold, bodies that are not
// a JSON object, and the browser's cross-site writes. Runs on SQLite and on PostgreSQL (test:postgres).
import { EVENT_STORE, type EventStore } from '@nest-es/core';
import request from 'supertest';
import { usePokerServer } from './support/poker-server-suite.js';

describe('poker routes: ids, bodies and origins are checked before any work', () => {
  const suite = usePokerServer();
  const http = () => request(suite.server.app.getHttpServer());
  const as = (id: string) => ({ Authorization: `Bearer ${suite.client.tokenOf(id)}` });
  const head = () => suite.server.app.get<EventStore>(EVENT_STORE).headPosition();
  const tableId = 'checks-table';

  beforeAll(async () => {
    await suite.client.createTable(tableId, { name: 'Checks', variant: 'TEXAS_HOLDEM', smallBlind: 5, bigBlind: 10, minBuyIn: 100, maxBuyIn: 1000, maxPlayers: 6 });
    await suite.client.registerPlayer('ida', 'Ida');
  });

  /** The answer has this status and code, in the framework's error body, and the store did not move. */
  async function refused(call: () => PromiseLike<request.Response>, status: number, code: string): Promise<request.Response> {
    const before = await head();
    const res = await call();
    expect({ status: res.status, code: res.body.code, statusCode: res.body.statusCode }).toEqual({ status, code, statusCode: status });
    expect(await head()).toBe(before);
    return res;
  }

  describe('ids in the path: NUL, control characters and over-long ids are 400 on every database', () => {
    const badIds = [
      ['NUL', '%00'],
      ['NUL inside', 'a%00b'],
      ['a C0 control', 'a%01b'],
      ['a line break', 'a%0Ab'],
      ['DEL', '%7F'],
      ['a C1 control', '%C2%85'],
      ['a lone surrogate', '%ED%A0%80'],
      ['201 characters', 't'.repeat(201)],
    ];

    it.each(badIds)('GET /tables/:id with %s', async (_name, id) => {
      const res = await refused(() => http().get(`/tables/${id}`), 400, 'INVALID_ARGUMENT');
      // Bytes that are not UTF-8 Fastify's router cannot decode at all; FASTIFY_ADAPTER_OPTIONS answers its refusal.
      expect(res.body.message).toMatch(/^tableId |^malformed URL: /);
    });

    it.each(badIds)('GET /players/:id/balance, POST /tables/:id/buy-in and /bots/act with %s', async (_name, id) => {
      await refused(() => http().get(`/players/${id}/balance`).set(as('ida')), 400, 'INVALID_ARGUMENT');
      await refused(() => http().post(`/tables/${id}/buy-in`).set(as('ida')).send({ playerId: 'ida', seat: -1, amount: 100 }), 400, 'INVALID_ARGUMENT');
      await refused(() => http().post(`/tables/${id}/bots/act`).set(as('ida')).send({}), 400, 'INVALID_ARGUMENT');
    });

    it('answers an unknown id of the longest length allowed with 404, and a known one with 200', async () => {
      await refused(() => http().get(`/tables/${'t'.repeat(200)}`), 404, 'NOT_FOUND');
      expect((await http().get(`/tables/${tableId}`)).status).toBe(200);
    });
  });

  describe('bodies: anything but a JSON object is 400', () => {
    const bodies: Array<[string, string]> = [
      ['an empty array', '[]'],
      ['an array of the request', '[{"playerId":"ida","seat":-1,"amount":100}]'],
      ['null', 'null'],
      ['a number', '5'],
      ['a string', '"ida"'],
    ];

    it.each(bodies)('POST /tables/:id/buy-in with %s', async (_name, body) => {
      await refused(() => http().post(`/tables/${tableId}/buy-in`).set(as('ida')).set('Content-Type', 'application/json').send(body), 400, 'INVALID_ARGUMENT');
    });

    it.each(bodies)('POST /auth/register with %s', async (_name, body) => {
      await refused(() => http().post('/auth/register').set('Content-Type', 'application/json').send(body), 400, 'INVALID_ARGUMENT');
    });
  });

  describe('the browser as an attack path', () => {
    it('refuses a cross-site form that registers a player: 403 for the foreign Origin, 415 for the form body', async () => {
      const form = 'playerId=csrf-victim&displayName=Pwned';
      await refused(() => http().post('/auth/register').set('Origin', 'https://evil.example').type('form').send(form), 403, 'PERMISSION_DENIED');
      await refused(() => http().post('/auth/register').type('form').send(form), 415, 'UNSUPPORTED_MEDIA_TYPE');
      await refused(() => http().post('/auth/register').set('Content-Type', 'text/plain').send('{"playerId":"csrf-victim","displayName":"Pwned"}'), 415, 'UNSUPPORTED_MEDIA_TYPE');
      await refused(() => http().post('/auth/register').set('Content-Type', 'multipart/form-data; boundary=x').send('--x--'), 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect((await http().get('/aggregates/player/csrf-victim').set(as('ida'))).status).not.toBe(200);
    });

    it('refuses non-JSON bodies on the buy-in and bot routes (415), even with a token', async () => {
      await refused(() => http().post(`/tables/${tableId}/buy-in`).set(as('ida')).type('form').send('playerId=ida&seat=-1&amount=100'), 415, 'UNSUPPORTED_MEDIA_TYPE');
      await refused(() => http().post(`/tables/${tableId}/bots/act`).set(as('ida')).set('Content-Type', 'text/plain').send('go'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('refuses a foreign Origin on every state-changing request (403), JSON or not, token or not', async () => {
      const evil = { Origin: 'https://evil.example' };
      await refused(() => http().post('/auth/register').set(evil).send({ playerId: 'csrf-json', displayName: 'X' }), 403, 'PERMISSION_DENIED');
      await refused(() => http().post(`/tables/${tableId}/buy-in`).set({ ...as('ida'), ...evil }).send({ playerId: 'ida', seat: -1, amount: 100 }), 403, 'PERMISSION_DENIED');
      await refused(() => http().post('/commands/player/ida/RenamePlayer').set({ ...as('ida'), ...evil }).send({ displayName: 'Pwned' }), 403, 'PERMISSION_DENIED');
      await refused(() => http().post('/auth/register').set('Origin', 'null').send({ playerId: 'csrf-null', displayName: 'X' }), 403, 'PERMISSION_DENIED');
    });

    it('lets the page write from its own origin, and any client that sends no Origin', async () => {
      const { port } = suite.server.app.getHttpServer().address() as { port: number };
      const own = await http().post('/auth/register').set('Origin', `http://127.0.0.1:${port}`).send({ playerId: 'same-site', displayName: 'Same' });
      expect(own.status).toBe(200);
      const plain = await http().post('/auth/register').send({ playerId: 'no-origin', displayName: 'None' });
      expect(plain.status).toBe(200);
      // Reads are not state-changing: a foreign page may read the public table (CORS still keeps the answer from it).
      expect((await http().get(`/tables/${tableId}`).set('Origin', 'https://evil.example')).status).toBe(200);
    });
  });
});
