import { ProcessManagerFixture } from '@nest-es/core/testing';
import type { Variant } from '../cards/index.js';
import { ActionTaken, BettingRoundComplete, BlindPosted, CommunityCardsDealt, DrawCompleted, HandComplete } from '../hand/index.js';
import { HandStarted } from '../table/index.js';
import type { BotPlayer } from './bot-player.js';
import { BotTurnsEnded, BotTurnsStarted } from './bot-turns.events.js';
import { BotTurnsProcess, type BotTurnsState } from './bot-turns.process-manager.js';

const HAND = 't-hand-1';
const PLAYERS = [
  { playerId: 'sb', position: 1, stack: 500 },
  { playerId: 'bb', position: 2, stack: 500 },
  { playerId: 'btn', position: 0, stack: 500 },
];
const started = (variant: Variant = 'TEXAS_HOLDEM', botDelayMs = 250) => new HandStarted(HAND, 1, variant, 0, 1, 2, 5, 10, PLAYERS, 't', 5000, null, botDelayMs);
const ofHand = (sequence: number, handId = HAND) => ({ aggregateType: 'hand', aggregateId: handId, sequence });
const BOT_TIMER = { cancelled: ['bot'], scheduled: [{ name: 'bot', afterMs: 250 }] };

/**
 * The scheduling side of the bots' flow, on the test kit's fixture. What a fired timer sends is
 * the hand as BotPlayer reads it from the store: test/poker-bots.e2e-spec.ts plays that part.
 */
async function flow(variant: Variant = 'TEXAS_HOLDEM') {
  const fixture = ProcessManagerFixture.for<BotTurnsState>(BotTurnsProcess, new BotTurnsProcess(null as unknown as BotPlayer));
  const outcome = await fixture.when(started(variant));
  return { fixture, outcome };
}

describe('the bot-turns process manager', () => {
  it("starts on HandStarted with the table's pace, and only once", async () => {
    const { fixture, outcome } = await flow();
    expect(outcome.events).toEqual([new BotTurnsStarted(HAND, 'TEXAS_HOLDEM', 250)]);
    expect((await fixture.when(new HandStarted('t-hand-2', 2, 'OMAHA', 0, 1, 2, 5, 10, PLAYERS, 't', 5000))).events).toEqual([]);
    expect(fixture.currentState).toMatchObject({ handId: HAND, botDelayMs: 250 });
  });

  it('takes the default pace from a HandStarted stored before the pace existed', async () => {
    const old = Object.assign(started(), { botDelayMs: undefined });
    const outcome = await ProcessManagerFixture.for<BotTurnsState>(BotTurnsProcess, new BotTurnsProcess(null as unknown as BotPlayer)).when(old);
    expect(outcome.events).toEqual([new BotTurnsStarted(HAND, 'TEXAS_HOLDEM', 800)]);
  });

  it('restarts the bot timer each time the turn passes, and stops it when nobody is to act', async () => {
    const { fixture } = await flow();
    expect(await fixture.when(new BlindPosted('sb', 'small', 5, 495, 5, null, 0), ofHand(2))).toMatchObject({ cancelled: ['bot'], scheduled: [] });
    expect(await fixture.when(new BlindPosted('bb', 'big', 10, 490, 15, 'btn', 10), ofHand(3))).toMatchObject(BOT_TIMER);
    expect(await fixture.when(new ActionTaken('btn', 'CALL', 10, 490, 25, 5, 'sb'), ofHand(4))).toMatchObject(BOT_TIMER);
    expect(fixture.pendingTimers).toHaveLength(1);
    expect(await fixture.when(new ActionTaken('bb', 'CHECK', 0, 490, 30, 0, null), ofHand(6))).toMatchObject({ cancelled: ['bot'], scheduled: [] });
    expect(await fixture.when(new BettingRoundComplete('PREFLOP'), ofHand(7))).toMatchObject({ cancelled: ['bot'], scheduled: [] });
    expect(await fixture.when(new CommunityCardsDealt(['As', 'Kd', '7c'], 'FLOP', ['As', 'Kd', '7c'], 'sb'), ofHand(8))).toMatchObject(BOT_TIMER);
    expect(fixture.pendingTimers).toHaveLength(1);
  });

  it('keeps the timer through the draw until the last draw opens the final round', async () => {
    const { fixture } = await flow('FIVE_CARD_DRAW');
    expect(await fixture.when(new BettingRoundComplete('PREFLOP'), ofHand(7))).toMatchObject(BOT_TIMER);
    expect(await fixture.when(new DrawCompleted('sb', [], [], null), ofHand(8))).toMatchObject({ cancelled: [], scheduled: [] });
    expect(fixture.pendingTimers).toHaveLength(1);
    expect(await fixture.when(new DrawCompleted('bb', [], [], 'sb'), ofHand(9))).toMatchObject(BOT_TIMER);
  });

  it('ignores other hands, and ends with the hand', async () => {
    const { fixture } = await flow();
    expect(await fixture.when(new ActionTaken('btn', 'CALL', 10, 490, 25, 5, 'sb'), ofHand(4, 'other-hand'))).toMatchObject({ events: [], scheduled: [], cancelled: [] });
    await fixture.when(new ActionTaken('btn', 'CALL', 10, 490, 25, 5, 'sb'), ofHand(4));
    const ended = await fixture.when(new HandComplete('t', HAND, {}, {}), ofHand(20));
    expect(ended).toMatchObject({ events: [new BotTurnsEnded()], cancelled: ['bot'] });
    expect(fixture.pendingTimers).toEqual([]);
    expect(await fixture.when(new ActionTaken('btn', 'CALL', 10, 490, 25, 5, 'sb'), ofHand(21))).toMatchObject({ scheduled: [] });
    // A timer that fires after the end (it was due as the hand ended) sends nothing.
    expect(await fixture.whenTimer('bot')).toMatchObject({ commands: [] });
  });
});
