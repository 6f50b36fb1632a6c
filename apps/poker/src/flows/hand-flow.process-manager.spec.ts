import { ProcessManagerFixture } from '@nest-es/core/testing';
import type { Variant } from '../cards/index.js';
import {
  ActionTaken,
  AwardPot,
  BettingRoundComplete,
  BlindPosted,
  CardsDealt,
  CardsMucked,
  CardsRevealed,
  CommunityCardsDealt,
  DealCommunityCards,
  DrawCompleted,
  PlayerAction,
  PostBlind,
  PotAwarded,
  RequestDraw,
  RevealCards,
} from '../hand/index.js';
import { HandStarted } from '../table/index.js';
import { BetSeen, BoardSeen, HandFlowCompleted, HandFlowStarted, HandShown, ShowdownStarted, TurnStarted } from './hand-flow.events.js';
import { HandFlowProcess } from './hand-flow.process-manager.js';
import type { HandFlowState } from './hand-flow.state.js';

const HAND = 't-hand-1';
// Dealing order after the dealer at seat 0: seat 1 (small blind), seat 2 (big blind), the dealer.
const PLAYERS = [
  { playerId: 'sb', position: 1, stack: 100 },
  { playerId: 'bb', position: 2, stack: 500 },
  { playerId: 'btn', position: 0, stack: 500 },
];
const started = (variant: Variant = 'TEXAS_HOLDEM') => new HandStarted(HAND, 1, variant, 0, 1, 2, 5, 10, PLAYERS, 't', 1000);
/** Where a hand event sits: the flow's key is the hand id, whatever correlation id the event carries. */
const ofHand = (sequence = 5, correlationId = 'any-correlation') => ({ aggregateType: 'hand', aggregateId: HAND, sequence, metadata: { correlationId } });

/** The flow of HAND (its instance key) after HandStarted. */
async function flow(variant: Variant = 'TEXAS_HOLDEM') {
  const fixture = ProcessManagerFixture.for<HandFlowState>(HandFlowProcess, new HandFlowProcess(), HAND);
  await fixture.when(started(variant), { aggregateType: 'table', aggregateId: 't', metadata: { correlationId: 'start-hand' } });
  return fixture;
}

describe('the hand flow process manager', () => {
  it('starts on HandStarted, once, and nothing else starts it', async () => {
    const fixture = await flow();
    expect(fixture.currentState).toMatchObject({ handId: HAND, tableId: 't', actionTimeoutMs: 1000, status: 'playing' });
    expect((await fixture.when(started('OMAHA'))).events).toEqual([]);
    const fresh = ProcessManagerFixture.for<HandFlowState>(HandFlowProcess, new HandFlowProcess(), HAND);
    expect((await fresh.when(new ActionTaken('sb', 'FOLD', 0, 100, 15, 0, 'bb'), ofHand())).ran).toBe(false);
  });

  it('records its start with what the hand needs and nothing else', async () => {
    const fixture = ProcessManagerFixture.for<HandFlowState>(HandFlowProcess, new HandFlowProcess(), HAND);
    expect((await fixture.when(started())).events).toEqual([new HandFlowStarted(HAND, 't', 'TEXAS_HOLDEM', 1000, 0, PLAYERS.map(({ playerId, position }) => ({ playerId, position })))]);
  });

  it('posts the small blind, then the big blind, once the cards are dealt', async () => {
    const fixture = await flow();
    const dealt = new CardsDealt('t', 1, 'TEXAS_HOLDEM', PLAYERS.map((p) => ({ ...p, holeCards: [] })), [], 0, 5, 10, 'seed');
    expect((await fixture.when(dealt, ofHand(1))).commands).toEqual([
      Object.assign(new PostBlind(), { handId: HAND, playerId: 'sb', blindType: 'small', amount: 5 }),
      Object.assign(new PostBlind(), { handId: HAND, playerId: 'bb', blindType: 'big', amount: 10 }),
    ]);
  });

  it('starts the clock of the player to act and stops the previous one', async () => {
    const fixture = await flow();
    expect(await fixture.when(new BlindPosted('sb', 'small', 5, 95, 5, null, 0), ofHand(2))).toMatchObject({
      events: [new BetSeen('sb', false)],
      cancelled: ['action'],
      scheduled: [],
    });
    const big = await fixture.when(new BlindPosted('bb', 'big', 10, 490, 15, 'btn', 10), ofHand(3));
    expect(big).toMatchObject({
      events: [new BetSeen('bb', false), new TurnStarted('btn', 10, 3)],
      cancelled: ['action'],
      scheduled: [{ name: 'action', afterMs: 1000, payload: { playerId: 'btn', amountToCall: 10, handSequence: 3 } }],
    });
    expect(big.state.actionOn).toBe('btn');
    const folded = await fixture.when(new ActionTaken('btn', 'FOLD', 0, 500, 15, 5, 'sb'), ofHand(4));
    expect(folded.state.players.find((p) => p.playerId === 'btn')!.folded).toBe(true);
  });

  it('follows every move of its hand, whatever correlation id it was sent with', async () => {
    const fixture = await flow();
    for (const correlationId of ['start-hand', 'made-up', 'another-hand']) {
      expect((await fixture.when(new ActionTaken('btn', 'CALL', 10, 490, 25, 5, 'sb'), ofHand(4, correlationId))).events).toContainEqual(new TurnStarted('sb', 5, 4));
    }
  });

  it.each([
    ['PREFLOP', 3],
    ['FLOP', 1],
    ['TURN', 1],
  ] as const)("asks for the next street after the %s round in Hold'em, in a round stored before the hand dealt its streets itself", async (phase, count) => {
    const fixture = await flow();
    expect((await fixture.when(new BettingRoundComplete(phase), ofHand())).commands).toEqual([Object.assign(new DealCommunityCards(), { handId: HAND, count })]);
  });

  it('sends nothing when the hand dealt the next street itself, and starts the clock of the first to act on it', async () => {
    const fixture = await flow();
    expect(await fixture.when(new BettingRoundComplete('PREFLOP', null, false, false, true), ofHand(6))).toMatchObject({ events: [], commands: [], cancelled: ['action'] });
    expect(await fixture.when(new CommunityCardsDealt(['2c', '7d', '9h'], 'FLOP', ['2c', '7d', '9h'], 'sb'), ofHand(7))).toMatchObject({
      events: [new TurnStarted('sb', 0, 7)],
      commands: [],
      scheduled: [{ name: 'action', afterMs: 1000, payload: { playerId: 'sb', amountToCall: 0, handSequence: 7 } }],
    });
  });

  it('goes to the showdown after the river; the hand has shown the first hands itself, so it asks nobody to show', async () => {
    const fixture = await flow();
    await fixture.when(new ActionTaken('btn', 'FOLD', 0, 500, 15, 5, 'sb'), ofHand());
    const showdown = await fixture.when(new BettingRoundComplete('RIVER', 'bb', true), ofHand(8));
    expect(showdown).toMatchObject({ events: [new ShowdownStarted(['sb', 'bb'])], commands: [], cancelled: ['action', 'draw'], scheduled: [] });
    expect(showdown.state.status).toBe('showdown');
    // The shows that follow in the same append: bb's hand, then sb's, which can still win; then the
    // pot, which the hand awarded itself: the flow sends nothing, and completes on PotAwarded.
    expect(await fixture.when(new CardsRevealed('bb', ['9s', '9h'], 'PAIR', 'sb'), ofHand(9))).toMatchObject({ events: [new HandShown('bb', ['9s', '9h']), new TurnStarted('sb', 0, 9)], commands: [] });
    const last = await fixture.when(new CardsRevealed('sb', ['Ks', 'Kh'], 'PAIR', null, true), ofHand(10));
    expect(last).toMatchObject({ events: [new HandShown('sb', ['Ks', 'Kh'])], commands: [], cancelled: ['action'] });
    expect((await fixture.when(new PotAwarded([{ playerId: 'sb', amount: 20 }]), ofHand(11))).state.status).toBe('complete');
  });

  it('in a showdown stored before the hand showed the first hand itself, asks the first to show, and nobody else yet', async () => {
    const fixture = await flow();
    await fixture.when(new ActionTaken('btn', 'FOLD', 0, 500, 15, 5, 'sb'), ofHand());
    const showdown = await fixture.when(new BettingRoundComplete('RIVER', 'bb'), ofHand());
    expect(showdown.events).toEqual([new ShowdownStarted(['sb', 'bb'])]);
    expect(showdown.commands).toEqual([Object.assign(new RevealCards(), { handId: HAND, playerId: 'bb', muck: false })]);
    expect(showdown.state.status).toBe('showdown');
  });

  it('goes to the showdown when one player is left, asking nobody to show; the hand awarded the pot itself', async () => {
    const fixture = (await flow()).given(new BetSeen('sb', false), new BetSeen('bb', false));
    await fixture.when(new ActionTaken('btn', 'FOLD', 0, 500, 15, 5, 'sb'), ofHand());
    await fixture.when(new ActionTaken('sb', 'FOLD', 0, 95, 15, 0, null), ofHand());
    const uncontested = await fixture.when(new BettingRoundComplete('PREFLOP', null, false, true), ofHand());
    expect(uncontested).toMatchObject({ events: [new ShowdownStarted(['bb'])], commands: [], cancelled: ['action', 'draw'] });
  });

  it('asks the hand to award the pot when one player is left in a hand stored before the hand awarded it itself', async () => {
    const fixture = await flow();
    await fixture.when(new ActionTaken('btn', 'FOLD', 0, 500, 15, 5, 'sb'), ofHand());
    await fixture.when(new ActionTaken('sb', 'FOLD', 0, 95, 15, 0, null), ofHand());
    const uncontested = await fixture.when(new BettingRoundComplete('PREFLOP'), ofHand());
    expect(uncontested.events).toEqual([new ShowdownStarted(['bb'])]);
    expect(uncontested.commands).toEqual([Object.assign(new AwardPot(), { handId: HAND })]);
  });

  it('starts the clock of the next player to show; when it runs out, their losing hand is mucked', async () => {
    const fixture = await flow();
    await fixture.when(new ActionTaken('btn', 'FOLD', 0, 500, 15, 5, 'sb'), ofHand());
    await fixture.when(new BettingRoundComplete('RIVER', 'sb'), ofHand());
    const first = await fixture.when(new CardsRevealed('sb', ['Ks', 'Kh'], 'PAIR', 'bb'), ofHand(12));
    expect(first).toMatchObject({
      events: [new HandShown('sb', ['Ks', 'Kh']), new TurnStarted('bb', 0, 12)],
      commands: [],
      cancelled: ['action'],
      scheduled: [{ name: 'action', afterMs: 1000, payload: { playerId: 'bb', amountToCall: 0, handSequence: 12 } }],
    });
    const [fired] = await fixture.advance(1000);
    expect(fired.emissions).toEqual([
      expect.objectContaining({ command: Object.assign(new RevealCards(), { handId: HAND, playerId: 'bb', muck: true }), expectedSequence: 12 }),
    ]);
    const mucked = await fixture.when(new CardsMucked('bb', null), ofHand(13));
    expect(mucked).toMatchObject({ events: [new HandShown('bb', null)], cancelled: ['action'], commands: [expect.any(AwardPot)] });
  });

  it('in Five Card Draw opens the draw with the clock of the first to draw, then bets once more, then shows down', async () => {
    const fixture = await flow('FIVE_CARD_DRAW');
    expect(await fixture.when(new BettingRoundComplete('PREFLOP'), ofHand(5))).toMatchObject({
      cancelled: ['action'],
      scheduled: [{ name: 'draw', afterMs: 1000, payload: { playerId: 'sb', handSequence: 5 } }],
    });
    // The turn to draw passes clockwise: sb, bb, then the dealer.
    expect(await fixture.when(new DrawCompleted('sb', [], [], null), ofHand(6))).toMatchObject({
      events: [],
      commands: [],
      cancelled: ['draw'],
      scheduled: [{ name: 'draw', afterMs: 1000, payload: { playerId: 'bb', handSequence: 6 } }],
    });
    expect(await fixture.when(new DrawCompleted('bb', [], [], 'sb'), ofHand(9))).toMatchObject({ cancelled: ['draw', 'action'], events: [new TurnStarted('sb', 0, 9)] });
    expect((await fixture.when(new BettingRoundComplete('DRAW', 'btn'), ofHand())).events).toEqual([new ShowdownStarted(['sb', 'bb', 'btn'])]);
  });

  it('in a showdown stored before the hand awarded its own pot, asks for it once the last contender has shown, looking ahead with stateAfter', async () => {
    const fixture = await flow();
    // Steps stored then: bets with the stack left, and the board.
    fixture.given(...['sb', 'bb', 'btn'].map((playerId) => Object.assign(new BetSeen(playerId, false), { playerStack: 0 })), new BoardSeen(['2c', '7d', '9h', 'Js', 'Kd']));
    await fixture.when(new CommunityCardsDealt(['Kd'], 'RIVER', ['2c', '7d', '9h', 'Js', 'Kd'], null), ofHand());
    await fixture.when(new BettingRoundComplete('RIVER'), ofHand());
    expect(await fixture.when(new CardsRevealed('sb', ['Ks', 'Kh'], 'THREE_OF_A_KIND'), ofHand())).toMatchObject({ events: [new HandShown('sb', ['Ks', 'Kh'])], commands: [] });
    await fixture.when(new CardsRevealed('bb', ['Qs', 'Qh'], 'PAIR'), ofHand());
    const last = await fixture.when(new CardsRevealed('btn', ['3d', '4d'], 'HIGH_CARD'), ofHand());
    expect(last.commands).toEqual([Object.assign(new AwardPot(), { handId: HAND })]);
    const awarded = await fixture.when(new PotAwarded([]), ofHand());
    expect(awarded).toMatchObject({ events: [new HandFlowCompleted([])], cancelled: ['action', 'draw'] });
    expect(awarded.state.status).toBe('complete');
    expect(await fixture.when(new ActionTaken('sb', 'CHECK', 0, 0, 0, 0, 'bb'), ofHand())).toMatchObject({ events: [], commands: [], scheduled: [] });
  });

  it('counts a mucked hand as shown', async () => {
    const fixture = await flow();
    await fixture.when(new ActionTaken('btn', 'FOLD', 0, 500, 15, 5, 'sb'), ofHand());
    await fixture.when(new BettingRoundComplete('RIVER'), ofHand());
    await fixture.when(new CardsRevealed('sb', ['Ks', 'Kh'], 'PAIR'), ofHand());
    const mucked = await fixture.when(new CardsMucked('bb'), ofHand());
    expect(mucked.events).toEqual([new HandShown('bb', null)]);
    expect(mucked.commands).toEqual([expect.any(AwardPot)]);
  });

  describe('timeouts', () => {
    it('folds a player facing a bet and checks one with nothing to call, only if the hand has not moved', async () => {
      const fixture = await flow();
      const fold = await fixture.whenTimer('action', { playerId: 'btn', amountToCall: 10, handSequence: 3 });
      expect(fold.emissions).toEqual([
        expect.objectContaining({ command: Object.assign(new PlayerAction(), { handId: HAND, playerId: 'btn', action: 'FOLD' }), expectedSequence: 3 }),
      ]);
      const check = await fixture.whenTimer('action', { playerId: 'bb', amountToCall: 0, handSequence: 7 });
      expect(check.emissions).toEqual([expect.objectContaining({ command: expect.objectContaining({ playerId: 'bb', action: 'CHECK' }), expectedSequence: 7 })]);
    });

    it('fires the clock a turn started, with what the turn faced', async () => {
      const fixture = await flow();
      await fixture.when(new BlindPosted('bb', 'big', 10, 490, 15, 'btn', 10), ofHand(3));
      const [fired] = await fixture.advance(1000);
      expect(fired).toMatchObject({ timer: 'action', emissions: [expect.objectContaining({ expectedSequence: 3, command: expect.objectContaining({ playerId: 'btn', action: 'FOLD' }) })] });
    });

    it('has the player whose turn it is to draw stand pat, only if the hand has not moved', async () => {
      const fixture = await flow('FIVE_CARD_DRAW');
      const fired = await fixture.whenTimer('draw', { playerId: 'bb', handSequence: 6 });
      expect(fired.emissions).toEqual([
        expect.objectContaining({ command: Object.assign(new RequestDraw(), { handId: HAND, playerId: 'bb', discardIndices: [] }), expectedSequence: 6 }),
      ]);
    });

    it('has everyone still to draw stand pat, in turn, on a draw timer set before the draw went in turns', async () => {
      const fixture = await flow('FIVE_CARD_DRAW');
      expect((await fixture.whenTimer('draw')).commands).toEqual(
        ['sb', 'bb', 'btn'].map((playerId) => Object.assign(new RequestDraw(), { handId: HAND, playerId, discardIndices: [] })),
      );
    });

    it('does nothing once the hand is over', async () => {
      const fixture = (await flow()).given(new ShowdownStarted(['bb']), new HandFlowCompleted([]));
      expect(await fixture.whenTimer('action', { playerId: 'bb', amountToCall: 0, handSequence: 3 })).toMatchObject({ events: [], commands: [] });
      expect(await fixture.whenTimer('draw')).toMatchObject({ events: [], commands: [] });
    });
  });
});
