import type { DataSource } from 'typeorm';
import { EVENT_STORE, type EventStore, type StoredEvent } from '@nest-es/core';
import { EVENT_SOURCING_DATA_SOURCE, portableQuery } from '@nest-es/typeorm';
import { VARIANTS } from '../apps/poker/src/cards/index.js';
import { checkOrCall, eventually, playOut } from './support/poker-server.js';
import { usePokerServer } from './support/poker-server-suite.js';

const BOT_DELAY_MS = 150;
/** Far longer than a hand of bots at BOT_DELAY_MS: a hand that waits for it was not played by the bots. */
const ACTION_TIMEOUT_MS = 30_000;
const BOT_MOVES = new Set(['ActionTaken', 'DrawCompleted']);

/**
 * What the server does without a client's help: it plays the bots at the table's pace, and its hand
 * flow (keyed by the hand id) follows a hand's moves whatever `Correlation-Id` they came with (or without).
 */
describe('poker over HTTP: the server drives the hand', () => {
  const suite = usePokerServer();
  let tables = 0;

  const stream = (aggregateType: string, aggregateId: string): Promise<StoredEvent[]> => suite.server.app.get<EventStore>(EVENT_STORE).readStream({ aggregateType, aggregateId });

  async function tableOf(players: Array<[string, 'HUMAN' | 'AI']>, terms: { variant?: (typeof VARIANTS)[number]; actionTimeoutMs?: number } = {}) {
    const tableId = `driven-${++tables}`;
    await suite.client.createTable(tableId, {
      name: tableId,
      variant: terms.variant ?? 'TEXAS_HOLDEM',
      smallBlind: 5,
      bigBlind: 10,
      minBuyIn: 100,
      maxBuyIn: 1000,
      maxPlayers: 6,
      actionTimeoutMs: terms.actionTimeoutMs ?? ACTION_TIMEOUT_MS,
      botDelayMs: BOT_DELAY_MS,
    });
    const ids = players.map(([name]) => `${name}-${tables}`);
    for (const [i, id] of ids.entries()) {
      await suite.client.registerPlayer(id, id, players[i][1]);
      expect(await suite.client.buyIn(tableId, id, 500, i)).toMatchObject({ status: 'COMPLETED' });
    }
    return { tableId, ids };
  }

  it.each(VARIANTS)('%s: a hand of bots finishes at the pace of the table, with nobody asking', async (variant) => {
    const { tableId, ids } = await tableOf([['ada', 'AI'], ['bo', 'AI'], ['cy', 'AI']], { variant });
    const { handId } = await suite.client.startHand(tableId, `bots-${variant}`);
    await eventually(() => suite.client.table(tableId), (view) => view.status === 'waiting', `the bots finish hand ${handId}`, ACTION_TIMEOUT_MS - 5_000);

    const hand = await stream('hand', handId);
    expect(hand.map((e) => e.type)).toContain('HandComplete');
    // Every bot move came at least the table's delay after what put the bot on turn (the bots of a
    // draw draw together, once the draw has been open that long).
    const moves = hand.filter((event, i) => i > 0 && BOT_MOVES.has(event.type));
    expect(moves.length).toBeGreaterThanOrEqual(2);
    const cause = (move: StoredEvent) => hand.slice(0, hand.indexOf(move)).findLast((event) => event.type !== 'DrawCompleted')!;
    const waited = moves.map((move) => ({ sequence: move.sequence, ms: move.occurredAt.getTime() - cause(move).occurredAt.getTime() }));
    expect(waited.filter(({ ms }) => ms < BOT_DELAY_MS)).toEqual([]);
    // Then the bots can leave: their chips are settled into their bankrolls.
    for (const id of ids) await suite.client.leave(tableId, id);
    const balances = await Promise.all(ids.map((id) => suite.client.balance(id)));
    expect(balances.map((b) => b.reserved)).toEqual([0, 0, 0]);
    expect(balances.reduce((sum, b) => sum + b.bankroll, 0)).toBe(3000);
  });

  it('lets a person play against the bots: the bots wait for the person, then move on their own', async () => {
    const { tableId, ids } = await tableOf([['dee', 'HUMAN'], ['ed', 'AI'], ['flo', 'AI']]);
    const [person] = ids;
    const { handId } = await suite.client.startHand(tableId, 'person-and-bots');
    for (let moves = 0; moves < 50; moves++) {
      const view = await eventually(() => suite.client.table(tableId), (v) => v.status === 'waiting' || v.hand?.actionOn === person, `${person}'s turn or the end`);
      if (view.status === 'waiting') break;
      // No Correlation-Id on the person's move: the hand flow follows it by its hand id. CASCADE:
      // the table view shows the move when it returns, so the next look does not see the same turn.
      // At the showdown the turn comes to the person only with a hand that cannot win: mucked.
      if (view.hand!.phase === 'SHOWDOWN') await suite.client.command('hand', handId, 'RevealCards', { playerId: person, muck: true }, { 'Sync-Mode': 'cascade' });
      else await suite.client.command('hand', handId, 'PlayerAction', { playerId: person, action: view.hand!.amountToCall > 0 ? 'CALL' : 'CHECK' }, { 'Sync-Mode': 'cascade' });
    }
    expect((await suite.client.table(tableId)).hand).toMatchObject({ handId, phase: 'COMPLETE' });
  });

  it('follows a move whatever Correlation-Id it carries, and keeps the one it came with', async () => {
    const { tableId, ids } = await tableOf([['gus', 'HUMAN'], ['hal', 'HUMAN']]);
    const { handId } = await suite.client.startHand(tableId, 'headers');
    const headers: Array<Record<string, string>> = [{}, { 'Correlation-Id': 'made-up' }, { 'Correlation-Id': 'another-made-up' }];
    for (const header of headers) {
      const view = await suite.client.table(tableId);
      if (view.status === 'waiting') break;
      await suite.client.command('hand', handId, 'PlayerAction', { playerId: view.hand!.actionOn!, action: view.hand!.amountToCall > 0 ? 'CALL' : 'CHECK' }, { ...header, 'Sync-Mode': 'cascade' });
    }
    const hand = await stream('hand', handId);
    const moves = hand.filter((e) => e.type === 'ActionTaken');
    expect(moves).toHaveLength(3);
    // The server no longer rewrites a move's Correlation-Id: the hand flow does not need it.
    expect(moves.slice(1).map((e) => e.metadata.correlationId)).toEqual(['made-up', 'another-made-up']);
    // The flow followed every move: whoever is on turn now is the one the flow's clock runs for.
    const view = await suite.client.table(tableId);
    const turns = (await stream('hand-flow', handId)).filter((e) => e.type === 'TurnStarted');
    expect((turns.at(-1)!.payload as { playerId: string }).playerId).toBe(view.hand!.actionOn);
    expect(ids).toContain(view.hand!.actionOn);
  });

  it('leaves a hand of people to the people: the bot flow starts no instance, and records one step (its start) of the whole hand', async () => {
    const { tableId } = await tableOf([['dee', 'HUMAN'], ['eve', 'HUMAN']]);
    const { handId } = await suite.client.startHand(tableId, 'people');
    const view = await playOut(suite.client, tableId, checkOrCall);
    expect(view.hand).toMatchObject({ handId, phase: 'COMPLETE' });

    expect(await stream('bot-turns', handId)).toEqual([]);
    // Each step a process manager records is a commit: the hand's start is looked at, its moves are not.
    const dataSource = suite.server.app.get<DataSource>(EVENT_SOURCING_DATA_SOURCE);
    const steps = await portableQuery(dataSource.manager, 'SELECT command_id FROM es_commands WHERE aggregate_type = $1 AND aggregate_id = $2', ['bot-turns', handId]);
    expect(steps).toHaveLength(1);
    expect((await stream('hand-flow', handId)).map((event) => event.type).at(-1)).toBe('HandFlowCompleted');
  });

  it("plays each hand to the end even when StartHand reuses a Correlation-Id: each hand's flows are keyed by its hand id", async () => {
    const { tableId, ids } = await tableOf([['ivy', 'AI'], ['jo', 'AI']]);
    const reused = 'the-same-id-every-time';
    const hands = new Set<string>();
    for (let hand = 0; hand < 2; hand++) {
      const answer = await suite.client.command('table', tableId, 'StartHand', {}, { 'Correlation-Id': reused, 'Sync-Mode': 'cascade' }, ids[0]);
      hands.add(String(answer.events[0].payload.handId));
      await eventually(() => suite.client.table(tableId), (view) => view.status === 'waiting', `hand ${hand + 1} ends`, ACTION_TIMEOUT_MS - 5_000);
    }
    expect(hands.size).toBe(2);
    for (const handId of hands) {
      const hand = await stream('hand', handId);
      expect(hand[0].metadata.correlationId).toBe(reused);
      expect(hand.map((e) => e.type)).toContain('HandComplete');
      for (const flow of ['hand-flow', 'bot-turns']) expect((await stream(flow, handId)).length).toBeGreaterThan(0);
    }
  });
});
