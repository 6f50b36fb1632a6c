// Every number a poker command takes has a documented range: a value beyond it is refused (400),
// never rounded; and whatever the commands accept, the read models hold, on SQLite and on PostgreSQL
// (test:postgres), where a 32-bit column would dead-letter the projector and lose the table view.
import { AggregateReader, CommandGateway, DeadLetterService, SyncMode } from '@nest-es/core';
import request from 'supertest';
import { DepositFunds, MAX_CHIPS_PER_COMMAND } from '../apps/poker/src/player/index.js';
import type { TableState } from '../apps/poker/src/table/index.js';
import { eventually, playOut } from './support/poker-server.js';
import { usePokerServer } from './support/poker-server-suite.js';

const INT32_MAX = 2 ** 31 - 1;

describe('poker numbers: bounded in, held exactly by every read model', () => {
  const suite = usePokerServer();
  const http = () => request(suite.server.app.getHttpServer());
  const as = (id: string) => ({ Authorization: `Bearer ${suite.client.tokenOf(id)}` });
  const terms = { name: 'Big', variant: 'TEXAS_HOLDEM' as const, smallBlind: 5, bigBlind: 10, minBuyIn: 100, maxBuyIn: 1000, maxPlayers: 6 };

  beforeAll(async () => {
    await suite.client.registerPlayer('owner', 'Owner');
  });

  /** A command as a JSON text, so that numbers JavaScript cannot hold reach the server as written. */
  const sendRaw = (aggregateType: string, id: string, commandType: string, json: string, by = 'owner') =>
    http().post(`/commands/${aggregateType}/${id}/${commandType}`).set({ ...as(by), 'Content-Type': 'application/json', 'Sync-Mode': 'simple' }).send(json);

  const fields = ['smallBlind', 'bigBlind', 'minBuyIn', 'maxBuyIn', 'maxPlayers', 'actionTimeoutMs', 'botDelayMs'];
  const hugeNumbers = ['3000000000', '1e308', '9007199254740993', '-9007199254740993'];

  it.each(fields.flatMap((field) => hugeNumbers.map((value) => [field, value])))('refuses CreateTable with %s = %s (400), storing nothing', async (field, value) => {
    const tableId = `huge-${field}-${value.replace(/\W/g, '_')}`;
    const json = JSON.stringify({ ...terms, smallBlind: 1, bigBlind: 2, [field]: '<n>' }).replace('"<n>"', value);
    const res = await sendRaw('table', tableId, 'CreateTable', json);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'INVALID_ARGUMENT' });
    expect(res.body.message).toContain(field);
    expect((await http().get(`/aggregates/table/${tableId}`).set(as('owner'))).status).toBe(404);
  });

  it('refuses a buy-in and a bet beyond the range, or beyond exact integers (400)', async () => {
    for (const amount of ['3000000000', '9007199254740993', '1e308']) {
      const buyIn = await http().post('/tables/any/buy-in').set({ ...as('owner'), 'Content-Type': 'application/json' }).send(`{"playerId":"owner","seat":-1,"amount":${amount}}`);
      expect({ amount, status: buyIn.status, code: buyIn.body.code }).toEqual({ amount, status: 400, code: 'INVALID_ARGUMENT' });
    }
    for (const amount of ['10000000001', '9007199254740993', '1e308']) {
      const bet = await sendRaw('hand', 'no-hand', 'PlayerAction', `{"playerId":"owner","action":"BET","amount":${amount}}`);
      expect({ amount, status: bet.status, code: bet.body.code }).toEqual({ amount, status: 400, code: 'INVALID_ARGUMENT' });
    }
  });

  it('creates a table at the top of every range, and shows it exactly', async () => {
    const top = { ...terms, smallBlind: MAX_CHIPS_PER_COMMAND, bigBlind: MAX_CHIPS_PER_COMMAND, minBuyIn: MAX_CHIPS_PER_COMMAND, maxBuyIn: MAX_CHIPS_PER_COMMAND, maxPlayers: 10, actionTimeoutMs: 600_000, botDelayMs: 60_000 };
    expect((await sendRaw('table', 'top-table', 'CreateTable', JSON.stringify(top))).status).toBe(200);
    const { botDelayMs: _notShown, ...shown } = top;
    expect(await suite.client.table('top-table')).toMatchObject({ ...shown, seats: [] });
  });

  it('keeps stacks beyond 2^31 exact through a hand, the leaderboard and the settlement', async () => {
    const gateway = suite.server.app.get(CommandGateway);
    const tableId = 'billion-table';
    const ids = ['rich-a', 'rich-b', 'rich-c'];
    await suite.client.createTable(tableId, { ...terms, smallBlind: 1_000_000, bigBlind: 2_000_000, minBuyIn: MAX_CHIPS_PER_COMMAND, maxBuyIn: MAX_CHIPS_PER_COMMAND });
    for (const id of ids) {
      await suite.client.registerPlayer(id, id);
      // Chips enter only with the registration over HTTP: the test deposits the rest as the app's own code would.
      await gateway.send(Object.assign(new DepositFunds(), { playerId: id, amount: MAX_CHIPS_PER_COMMAND }), { authorize: false, syncMode: SyncMode.SIMPLE });
      expect(await suite.client.buyIn(tableId, id, MAX_CHIPS_PER_COMMAND)).toMatchObject({ status: 'COMPLETED' });
    }
    await suite.client.startHand(tableId, 'all-in-for-billions');
    const view = await playOut(suite.client, tableId, () => ({ action: 'ALL_IN' }));

    const stacks = view.seats.map((seat) => seat.stack);
    expect(stacks.reduce((sum, stack) => sum + stack, 0)).toBe(3 * MAX_CHIPS_PER_COMMAND);
    expect(Math.max(...stacks)).toBeGreaterThan(INT32_MAX);
    const state = (await suite.server.app.get(AggregateReader).state('table', tableId)).state as TableState;
    expect(stacks).toEqual(Object.values(state.seats).map((seat) => seat.stack));

    const leaderboard = await suite.client.leaderboard();
    const net = Object.fromEntries(leaderboard.map((entry) => [entry.playerId, entry.netWinnings]));
    expect(ids.map((id) => net[id])).toEqual(stacks.map((stack) => stack - MAX_CHIPS_PER_COMMAND));

    for (const id of ids) await suite.client.leave(tableId, id);
    const bankrolls = await eventually(
      () => Promise.all(ids.map(async (id) => (await suite.client.balance(id)).bankroll)),
      (values) => values.reduce((sum, value) => sum + value, 0) === 3 * (MAX_CHIPS_PER_COMMAND + 1000),
      'every chip back in a bankroll',
    );
    expect(bankrolls).toEqual(stacks.map((stack) => stack + 1000));
    expect(await suite.server.app.get(DeadLetterService).list()).toEqual([]);
  });
});
