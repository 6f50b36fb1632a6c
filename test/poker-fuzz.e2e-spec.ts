import http from 'node:http';
import { FuzzTally, type RawRequest, sendRaw } from './support/raw-http.js';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { hostileBodies, hostileStrings, idSegment, json, text } from './support/hostile-input.js';
import { startPokerServer, type PokerServer } from './support/poker-server.js';
import { createTestStore, type TestStore } from './support/test-store.js';

/**
 * Hostile input on every route of the poker app's OpenAPI document: its own controllers (sign-up,
 * buy-in, tables, bots, leaderboard, ...) and the framework's command and read routes. Path
 * parameters from known and hostile ids, JSON bodies with prototype keys at every depth, deep
 * nesting and malformed JSON, form bodies with bracket keys (`x[constructor]=1`), with and without a
 * player's or the operator's token. For every request: no 5xx, and every refusal a coded JSON error.
 * FUZZ_RUNS sets the count, FUZZ_SEED another seed.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 3_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_202);
const ADMIN_TOKEN = 'operator-token-for-the-fuzz-suite';

interface Route {
  method: string;
  path: string;
}

/** Percent-encoded; a lone surrogate (which encodeURIComponent refuses) goes as the raw bytes a careless client sends. */
function formEncoded(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

const formBody = fc.oneof(
  fc.constantFrom('x[constructor]=1', 'a[__proto__][b]=1', 'displayName[constructor]=1', 'amount=1e400', 'seat[]=1&seat[]=2', `${'a['.repeat(40)}${']'.repeat(40)}=1`, '&&==&', '%00=%00'),
  fc.array(fc.tuple(fc.oneof(text, hostileStrings), text), { maxLength: 4 }).map((pairs) => pairs.map(([k, v]) => `${formEncoded(k)}=${formEncoded(v)}`).join('&')),
);

describe(`poker app fuzzing: hostile input on every documented route never yields a 5xx (${RUNS} requests, seed ${SEED})`, () => {
  let store: TestStore;
  let server: PokerServer;
  let port: number;
  let routes: Route[];
  let tokens: string[];
  const known = ['fuzz-table', 'fuzzer', 'other'];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  beforeAll(async () => {
    store = await createTestStore();
    server = await startPokerServer(store.options, { auth: { adminToken: ADMIN_TOKEN } });
    port = (server.app.getHttpServer().address() as AddressInfo).port;
    const { client } = server;
    await client.createTable('fuzz-table', { name: 'Fuzz', variant: 'TEXAS_HOLDEM', smallBlind: 5, bigBlind: 10, minBuyIn: 100, maxBuyIn: 1000, maxPlayers: 6 });
    for (const id of ['fuzzer', 'other']) {
      await client.registerPlayer(id, id);
      await client.buyIn('fuzz-table', id, 500);
    }
    const { handId } = await client.startHand('fuzz-table', undefined, 'fuzzer');
    known.push(handId);
    tokens = [client.tokenOf('fuzzer')!, client.tokenOf('other')!];
    const document = JSON.parse((await send({ method: 'GET', path: '/docs-json', headers: {} })).body) as { paths: Record<string, Record<string, unknown>> };
    routes = Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => ({ method: method.toUpperCase(), path })));
  });

  afterAll(async () => {
    agent.destroy();
    await server?.app.close();
    await store?.cleanup();
  });

  const send = (req: RawRequest) => sendRaw(port, agent, req);

  it('answers every generated request with a success or a coded 4xx', async () => {
    expect(routes.length).toBeGreaterThan(10);
    const param = fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...known) }, idSegment);
    const auth = fc.constantFrom<Record<string, string>>({}, { authorization: `Bearer ${tokens[0]}` }, { authorization: `Bearer ${tokens[1]}` }, { authorization: `Bearer ${ADMIN_TOKEN}` }, { authorization: 'Bearer x.y.z' });
    const body = fc.oneof(
      { weight: 3, arbitrary: hostileBodies(fc.record({ playerId: param, displayName: text, amount: fc.integer(), seat: fc.integer({ min: -1, max: 10 }), extra: json }, { requiredKeys: [] }).map((value) => JSON.stringify(value))).map((raw) => ({ type: 'application/json', raw })) },
      { weight: 1, arbitrary: formBody.map((raw) => ({ type: 'application/x-www-form-urlencoded', raw })) },
      { weight: 1, arbitrary: text.map((raw) => ({ type: 'text/plain', raw })) },
    );
    const request = fc
      .record({ route: fc.constantFrom(...routes), params: fc.array(param, { minLength: 4, maxLength: 4 }), query: fc.oneof(fc.constant(''), idSegment.map((value) => `?viewer=${value}&afterSequence=${value}&limit=${value}`)), auth, body })
      .map(({ route, params, query, auth, body }) => {
        let index = 0;
        const path = route.path.replace(/\{[^}]+\}/g, () => params[index++ % params.length]) + query;
        const withBody = route.method !== 'GET';
        return { method: route.method, path, headers: { ...auth, ...(withBody ? { 'content-type': body.type } : {}) }, body: withBody ? body.raw : undefined };
      });
    const tally = new FuzzTally();
    await fc.assert(
      fc.asyncProperty(request, async (req) => {
        tally.record(req, await send(req));
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    console.log(`poker fuzz: ${routes.length} routes, ${tally}`);
    expect((await send({ method: 'GET', path: '/health', headers: {} })).status).toBe(200);
  }, 300_000);
});
