import type request from 'supertest';
import { HTTP_ADAPTERS } from './support/http-adapter.js';
import { useMergeApp } from './support/merge-app-suite.js';

// The poker player with every command exposed: the generic contract, not the poker app's security (see security.e2e-spec.ts).
describe.each(HTTP_ADAPTERS)('poker over HTTP (%s): the command contract and the error model', (adapter) => {
  const suite = useMergeApp({ adapter });

  const send = (id: string, command: string, body: unknown, headers: Record<string, string> = {}) =>
    suite.http.post(`/commands/player/${id}/${command}`).set(headers).send(body as object);

  const eventCount = async (id: string) => (await suite.http.get(`/aggregates/player/${id}/events`)).body.events?.length ?? 0;

  it('registers, deposits and withdraws, and reads state and events back', async () => {
    const registered = await send('alice', 'RegisterPlayer', { displayName: 'Alice', email: 'alice@example.com' });
    expect(registered.status).toBe(200);
    expect(registered.body).toMatchObject({
      aggregateType: 'player',
      aggregateId: 'alice',
      sequence: 1,
      events: [{ type: 'PlayerRegistered', sequence: 1, payload: { displayName: 'Alice', email: 'alice@example.com', playerType: 'HUMAN' } }],
    });
    expect(typeof registered.body.events[0].position).toBe('number');

    const deposited = await send('alice', 'DepositFunds', { amount: 500 });
    expect(deposited.body).toMatchObject({ sequence: 2, events: [{ type: 'FundsDeposited', payload: { amount: 500, newBalance: 500 } }] });
    const withdrawn = await send('alice', 'WithdrawFunds', { amount: 200 });
    expect(withdrawn.body).toMatchObject({ sequence: 3, events: [{ type: 'FundsWithdrawn', payload: { amount: 200, newBalance: 300 } }] });

    const state = await suite.http.get('/aggregates/player/alice');
    expect(state.status).toBe(200);
    expect(state.body).toEqual({
      sequence: 3,
      state: expect.objectContaining({ displayName: 'Alice', bankroll: 300, available: 300, reserved: 0 }),
    });

    const events = await suite.http.get('/aggregates/player/alice/events?afterSequence=1');
    expect(events.body.events.map((e: { type: string; sequence: number }) => [e.type, e.sequence])).toEqual([
      ['FundsDeposited', 2],
      ['FundsWithdrawn', 3],
    ]);
    expect(events.body.events[0].metadata).toMatchObject({ commandId: expect.any(String), correlationId: expect.any(String), causationId: expect.any(String) });
  });

  it('stamps the caller\'s correlation id and makes the command the causation of its events', async () => {
    await send('carol', 'RegisterPlayer', { displayName: 'Carol', email: 'carol@example.com' });
    const res = await send('carol', 'DepositFunds', { amount: 10 }, { 'Command-Id': 'cmd-carol-1', 'Correlation-Id': 'flow-7' });
    expect(res.status).toBe(200);
    const events = await suite.http.get('/aggregates/player/carol/events?afterSequence=1');
    expect(events.body.events[0].metadata).toMatchObject({ commandId: 'cmd-carol-1', correlationId: 'flow-7', causationId: 'cmd-carol-1' });
  });

  it('answers a repeated Command-Id with the first result and appends nothing', async () => {
    await send('bob', 'RegisterPlayer', { displayName: 'Bob', email: 'bob@example.com' });
    const first = await send('bob', 'DepositFunds', { amount: 100 }, { 'Command-Id': 'deposit-bob-1' });
    const again = await send('bob', 'DepositFunds', { amount: 100 }, { 'Command-Id': 'deposit-bob-1' });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await eventCount('bob')).toBe(2);
    expect((await suite.http.get('/aggregates/player/bob')).body.state.bankroll).toBe(100);
  });

  it('refuses a business rule with FAILED_PRECONDITION and names the numbers', async () => {
    await send('dave', 'RegisterPlayer', { displayName: 'Dave', email: 'dave@example.com' });
    await send('dave', 'DepositFunds', { amount: 500 });
    const res = await send('dave', 'WithdrawFunds', { amount: 600 });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ statusCode: 409, code: 'FAILED_PRECONDITION', message: 'insufficient funds: available 500, requested 600' });
    const unregistered = await send('nobody', 'DepositFunds', { amount: 5 });
    expect(unregistered.status).toBe(409);
    expect(unregistered.body.message).toBe('player is not registered');
    expect(await eventCount('dave')).toBe(2);
  });

  describe('bad input gets its code, a specific message, and leaves the store unchanged', () => {
    let positionBefore: number;

    beforeAll(async () => {
      await send('erin', 'RegisterPlayer', { displayName: 'Erin', email: 'erin@example.com' });
    });

    beforeEach(async () => {
      positionBefore = (await suite.http.get('/health')).body.info.store.headPosition;
    });

    afterEach(async () => {
      expect((await suite.http.get('/health')).body.info.store.headPosition).toBe(positionBefore);
      expect(await eventCount('erin')).toBe(1);
    });

    const cases: Array<[string, () => request.Test, number, string, RegExp]> = [
      ['unknown aggregate type', () => suite.http.post('/commands/casino/x/DepositFunds').send({ amount: 1 }), 404, 'NOT_FOUND', /no command DepositFunds on 'casino' can be sent over HTTP$/],
      ['unknown command', () => send('erin', 'StealFunds', { amount: 1 }), 404, 'NOT_FOUND', /no command StealFunds on 'player' can be sent over HTTP; these can: RegisterPlayer, /],
      [
        'malformed JSON',
        () => suite.http.post('/commands/player/erin/DepositFunds').set('Content-Type', 'application/json').send('{"amount": 5,'),
        400,
        'INVALID_ARGUMENT',
        /malformed JSON body/,
      ],
      ['a JSON array body', () => send('erin', 'DepositFunds', [1, 2]), 400, 'INVALID_ARGUMENT', /must be a JSON object/],
      ['wrong field type', () => send('erin', 'DepositFunds', { amount: 'ten' }), 400, 'INVALID_ARGUMENT', /amount must be a whole number of chips, got "ten"/],
      ['negative amount', () => send('erin', 'DepositFunds', { amount: -5 }), 400, 'INVALID_ARGUMENT', /amount must be a positive whole number of chips, got -5/],
      ['missing field', () => send('erin', 'DepositFunds', {}), 400, 'INVALID_ARGUMENT', /amount must be/],
      ['fractional chips', () => send('erin', 'DepositFunds', { amount: 1.5 }), 400, 'INVALID_ARGUMENT', /got 1.5/],
      ['bad email', () => send('frank', 'RegisterPlayer', { displayName: 'F', email: 'not-mail' }), 400, 'INVALID_ARGUMENT', /email must be an email address, got "not-mail"/],
      [
        'huge body',
        () => send('erin', 'RenamePlayer', { displayName: 'x'.repeat(200_000) }),
        400,
        'INVALID_ARGUMENT',
        /request body of \d+ bytes is larger than the limit of \d+ bytes/,
      ],
      [
        'non-numeric Expected-Sequence',
        () => send('erin', 'DepositFunds', { amount: 5 }, { 'Expected-Sequence': 'one' }),
        400,
        'INVALID_ARGUMENT',
        /Expected-Sequence must be a whole number from 0 to 2147483647, got 'one'/,
      ],
      ['negative Expected-Sequence', () => send('erin', 'DepositFunds', { amount: 5 }, { 'Expected-Sequence': '-1' }), 400, 'INVALID_ARGUMENT', /got '-1'/],
      ['unknown Sync-Mode', () => send('erin', 'DepositFunds', { amount: 5 }, { 'Sync-Mode': 'eventually' }), 400, 'INVALID_ARGUMENT', /Sync-Mode must be async, simple or cascade, got 'eventually'/],
      [
        'unknown Merge-Strategy',
        () => send('erin', 'DepositFunds', { amount: 5 }, { 'Merge-Strategy': 'yolo' }),
        400,
        'INVALID_ARGUMENT',
        /merge strategy must be one of commutative, strict, aggregate_handles, manual, got 'yolo'/,
      ],
      [
        'a body id that disagrees with the path',
        () => send('erin', 'DepositFunds', { amount: 5, playerId: 'mallory' }),
        400,
        'INVALID_ARGUMENT',
        /DepositFunds.playerId is 'mallory' but the target aggregate id is 'erin'/,
      ],
      ['an over-long aggregate id', () => send('e'.repeat(300), 'DepositFunds', { amount: 5 }), 400, 'INVALID_ARGUMENT', /aggregateId must be a non-empty string of at most 200 characters/],
    ];

    it.each(cases)('%s', async (_name, call, status, code, message) => {
      const res = await call();
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ statusCode: status, code });
      expect(res.body.message).toMatch(message);
      expect(JSON.stringify(res.body)).not.toMatch(/\bat .*\.(ts|js):\d+/);
    });
  });

  it('answers 404 for an aggregate without events, and for events of an unknown type', async () => {
    const res = await suite.http.get('/aggregates/player/ghost');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, code: 'NOT_FOUND', message: 'player/ghost has no events' });
    expect((await suite.http.get('/aggregates/casino/x/events')).status).toBe(404);
    const bad = await suite.http.get('/aggregates/player/alice/events?afterSequence=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/afterSequence must be a whole number from 0 to 2147483647, given once; got 'abc'/);
  });

  it('serves Prometheus metrics with command counts by outcome', async () => {
    const res = await suite.http.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/es_commands_total\{aggregate_type="player",command_type="DepositFunds",outcome="ok"\} \d+/);
    expect(res.text).toMatch(/es_commands_total\{aggregate_type="player",command_type="WithdrawFunds",outcome="FAILED_PRECONDITION"\} \d+/);
    expect(res.text).toMatch(/es_command_duration_seconds_bucket/);
  });

  it('reports health', async () => {
    const res = await suite.http.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', info: { store: { status: 'up' }, admission: { status: 'up' } } });
    const live = await suite.http.get('/health/live');
    expect([live.status, live.body.status]).toEqual([200, 'ok']);
  });
});
