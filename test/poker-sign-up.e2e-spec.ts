// POST /auth/register survives a database hiccup between its steps: a retry with the same
// Idempotency-Key finishes the sign-up (registered once, deposited once, token issued), while anyone
// else asking for a taken id is still refused. Runs on SQLite and on PostgreSQL (test:postgres).
import { jest } from '@jest/globals';
import { CommandGateway, EVENT_STORE, type EventStore } from '@nest-es/core';
import request from 'supertest';
import { DepositFunds } from '../apps/poker/src/player/index.js';
import { usePokerServer } from './support/poker-server-suite.js';

describe('sign-up: a retry finishes the job, a stranger cannot take the id', () => {
  const suite = usePokerServer();
  const http = () => request(suite.server.app.getHttpServer());
  const register = (body: object, key?: string) => http().post('/auth/register').set(key ? { 'Idempotency-Key': key } : {}).send(body);
  const typesOf = async (playerId: string) =>
    (await suite.server.app.get<EventStore>(EVENT_STORE).readStream({ aggregateType: 'player', aggregateId: playerId })).map((event) => event.type);

  /** The next DepositFunds fails as a connection reset would: before it reaches the store, or after it committed. */
  function depositFailsOnce(when: 'before' | 'after'): void {
    // The gateway takes a command (`send(command, options)`) or its class and fields (`send(Class, fields, options)`).
    const gateway = suite.server.app.get(CommandGateway) as unknown as { send(...args: unknown[]): Promise<unknown> };
    const send = gateway.send.bind(gateway);
    const spy = jest.spyOn(gateway, 'send').mockImplementation(async (...args: unknown[]) => {
      if (args[0] !== DepositFunds && !(args[0] instanceof DepositFunds)) return send(...args);
      spy.mockRestore();
      if (when === 'after') await send(...args);
      throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    });
  }

  async function expectSignedUp(playerId: string, token: string): Promise<void> {
    expect(await typesOf(playerId)).toEqual(['PlayerRegistered', 'FundsDeposited']);
    const balance = await http().get(`/players/${playerId}/balance`).set('Authorization', `Bearer ${token}`);
    expect({ status: balance.status, bankroll: balance.body.bankroll }).toEqual({ status: 200, bankroll: 1000 });
  }

  it.each(['before', 'after'] as const)('finishes a sign-up whose deposit failed %s committing, with one deposit', async (when) => {
    const playerId = `hiccup-${when}`;
    depositFailsOnce(when);
    const first = await register({ playerId, displayName: 'Hic' }, `key-${when}`);
    expect(first.status).toBeGreaterThanOrEqual(500);
    expect(first.body.token).toBeUndefined();

    const retry = await register({ playerId, displayName: 'Hic' }, `key-${when}`);
    expect({ status: retry.status, playerId: retry.body.playerId }).toEqual({ status: 200, playerId });
    await expectSignedUp(playerId, retry.body.token);

    // Once more, as a client that lost the answer would: the same result, still one deposit.
    const again = await register({ playerId, displayName: 'Hic' }, `key-${when}`);
    expect(again.status).toBe(200);
    await expectSignedUp(playerId, again.body.token);
  });

  it('gives a player id of its own to a retried sign-up that named none', async () => {
    depositFailsOnce('before');
    expect((await register({ displayName: 'Anon' }, 'anonymous-key')).status).toBeGreaterThanOrEqual(500);
    const retry = await register({ displayName: 'Anon' }, 'anonymous-key');
    expect(retry.status).toBe(200);
    await expectSignedUp(retry.body.playerId, retry.body.token);
    const other = await register({ displayName: 'Anon' }, 'another-key');
    expect(other.status).toBe(200);
    expect(other.body.playerId).not.toBe(retry.body.playerId);
  });

  it('refuses a taken id to another caller, half-finished or not, and issues them no token', async () => {
    depositFailsOnce('before');
    expect((await register({ playerId: 'half-done', displayName: 'Half' }, 'owner-key')).status).toBeGreaterThanOrEqual(500);
    for (const key of ['thief-key', undefined]) {
      const stolen = await register({ playerId: 'half-done', displayName: 'Half' }, key);
      expect({ status: stolen.status, code: stolen.body.code, token: stolen.body.token }).toEqual({ status: 409, code: 'FAILED_PRECONDITION', token: undefined });
    }
    const owner = await register({ playerId: 'half-done', displayName: 'Half' }, 'owner-key');
    expect(owner.status).toBe(200);
    await expectSignedUp('half-done', owner.body.token);

    for (const key of ['thief-key', undefined]) expect((await register({ playerId: 'half-done', displayName: 'Half' }, key)).status).toBe(409);
    expect(await typesOf('half-done')).toEqual(['PlayerRegistered', 'FundsDeposited']);
  });

  it('refuses the same key with another request (409 ALREADY_EXISTS), and a key no id could be (400)', async () => {
    expect((await register({ playerId: 'keyed', displayName: 'Keyed' }, 'keyed-key')).status).toBe(200);
    const changed = await register({ playerId: 'keyed', displayName: 'Someone else' }, 'keyed-key');
    expect({ status: changed.status, code: changed.body.code }).toEqual({ status: 409, code: 'ALREADY_EXISTS' });
    const res = await register({ playerId: 'bad-key', displayName: 'Bad' }, 'k'.repeat(201));
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'INVALID_ARGUMENT' });
  });
});
