import { EVENT_STORE, type EventStore } from '@nest-es/core';
import { TIMER_STORE } from '@nest-es/core/internal';
import { type TimerStore } from '@nest-es/core/adapter';
import { readModelStore } from '@nest-es/typeorm';
import { checkOrCall, eventually, playOut, type PokerServer, startPokerServer } from './support/poker-server.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { createDataSource } from '@nest-es/typeorm';

/** The app closed in the middle of a hand and created again on the same store: the hand goes on. */
describe('poker across a restart', () => {
  let store: TestStore;
  let server: PokerServer | undefined;

  beforeEach(async () => {
    store = await createTestStore();
    server = await startPokerServer(store.options);
  });

  afterEach(async () => {
    await server?.app.close();
    await store.cleanup();
  });

  /** Closes the app; `whileDown` runs on the read models' database (with the checkpoints) before the app is created again. */
  /** The players keep their tokens across the restart: the server signs with the same secret (as with POKER_AUTH_SECRET). */
  async function restart(whileDown?: (sql: (text: string) => Promise<unknown>) => Promise<unknown>): Promise<PokerServer> {
    const before = server!.client;
    await server!.app.close();
    server = undefined;
    if (whileDown) {
      const dataSource = await createDataSource(readModelStore(store.options)).initialize();
      await whileDown((text) => dataSource.query(text));
      await dataSource.destroy();
    }
    server = await startPokerServer(store.options);
    server.client.keepTokensOf(before);
    return server;
  }

  async function seat(tableId: string, players: string[], actionTimeoutMs?: number): Promise<void> {
    const { client } = server!;
    await client.createTable(tableId, { name: tableId, variant: 'TEXAS_HOLDEM', smallBlind: 5, bigBlind: 10, minBuyIn: 100, maxBuyIn: 1000, maxPlayers: 6, actionTimeoutMs });
    for (const id of players) {
      await client.registerPlayer(id, id);
      await client.buyIn(tableId, id, 500);
    }
  }

  it('accepts the next action after the restart and plays the hand to its end', async () => {
    await seat('main', ['ada', 'bob', 'cy']);
    const { handId } = await server!.client.startHand('main', 'restart');
    await server!.client.act('main', 'ada', 'CALL');
    await server!.client.act('main', 'bob', 'RAISE', 20);
    const before = await server!.client.table('main');
    expect(before.hand).toMatchObject({ handId, phase: 'PREFLOP', actionOn: 'cy', amountToCall: 20 });

    const { client, app } = await restart();
    expect((await client.table('main')).hand).toEqual(before.hand);
    const next = await client.act('main', 'cy', 'CALL');
    expect(next.events.map((e) => e.type)).toEqual(['ActionTaken']);
    await client.act('main', 'ada', 'CALL');
    const flop = await client.table('main');
    expect(flop.hand).toMatchObject({ phase: 'FLOP', pot: 90 });
    const after = await playOut(client, 'main', checkOrCall);

    expect(after.hand!.phase).toBe('COMPLETE');
    expect(after.seats.reduce((sum, s) => sum + s.stack, 0)).toBe(1500);
    const flow = (await app.get<EventStore>(EVENT_STORE).readStream({ aggregateType: 'hand-flow', aggregateId: handId })).map((e) => e.type);
    expect(flow[0]).toBe('HandFlowStarted');
    expect(flow.at(-1)).toBe('HandFlowCompleted');
  });

  it('keeps the action timer across the restart: the idle player is still folded', async () => {
    await seat('timed', ['dee', 'eli'], 1000);
    const { handId } = await server!.client.startHand('timed');
    expect((await server!.client.table('timed')).hand!.actionOn).toBe('dee');

    const { client } = await restart();
    const view = await eventually(() => client.table('timed'), (table) => table.status === 'waiting', 'the hand ended by the timeout after the restart');
    expect(view.hand).toMatchObject({ handId, phase: 'COMPLETE', awards: [{ playerId: 'eli', amount: 15 }], lastAction: { playerId: 'dee', action: 'FOLD' } });
  });

  it('keeps the action timer when the hand flow redelivers its steps after a crash', async () => {
    await seat('replayed', ['fin', 'gus'], 1000);
    const { handId } = await server!.client.startHand('replayed');
    expect(await server!.app.get<TimerStore>(TIMER_STORE).pending('hand-flow', handId)).toHaveLength(1);

    // As if the process had died before checkpointing: every step of the hand flow is delivered again,
    // each cancelling the action timer and scheduling its own once more.
    const { client, app } = await restart((sql) => sql(`UPDATE es_checkpoints SET position = 0 WHERE subscriber = 'hand-flow'`));
    const view = await eventually(() => client.table('replayed'), (table) => table.status === 'waiting', 'the hand ended by the timeout after the redelivery');
    expect(view.hand).toMatchObject({ handId, awards: [{ playerId: 'gus', amount: 15 }], lastAction: { playerId: 'fin', action: 'FOLD' } });
    expect(await app.get<TimerStore>(TIMER_STORE).pending('hand-flow', handId)).toEqual([]);
  });
});
