import { type CommandEmission, type ProcessContext, type ProcessReaction } from '@nest-es/core';
import { envelopeOf, replayProcess } from '../../../../test/support/process-replay.js';
import {
  ActionTaken,
  AwardPot,
  BettingRoundComplete,
  BlindPosted,
  CardsDealt,
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
import type { Variant } from '../cards/index.js';
import { HandStarted } from '../table/index.js';
import { BetSeen, BoardSeen, HandFlowStarted, HandShown, ShowdownStarted, TurnStarted } from './hand-flow.events.js';
import { HandFlowProcess } from './hand-flow.process-manager.js';
import type { HandFlowState } from './hand-flow.state.js';

const HAND = 't-hand-1';
const context = { correlationId: 'c', sequence: 0, now: new Date(0) } as ProcessContext;
// Dealing order after the dealer at seat 0: seat 1 (small blind), seat 2 (big blind), the dealer.
const PLAYERS = [
  { playerId: 'sb', position: 1, stack: 100 },
  { playerId: 'bb', position: 2, stack: 500 },
  { playerId: 'btn', position: 0, stack: 500 },
];
const started = (variant: Variant = 'TEXAS_HOLDEM') => new HandStarted(HAND, 1, variant, 0, 1, 2, 5, 10, PLAYERS, 't', 1000);

/** The flow after HandStarted, plus a way to feed it hand events the way the framework does. */
function flow(variant: Variant = 'TEXAS_HOLDEM') {
  const process = new HandFlowProcess();
  const state: HandFlowState = process.initialState();
  const record = (reaction: ProcessReaction) => {
    replayProcess(process, state, reaction.events ?? []);
    return reaction;
  };
  record(process.onHandStarted(started(variant), state));
  const on = <E>(handler: (event: E, state: HandFlowState, context: ProcessContext, envelope: ReturnType<typeof envelopeOf>) => ProcessReaction, event: E, sequence = 5, handId = HAND) =>
    record(handler.call(process, event, state, context, envelopeOf('hand', handId, sequence)));
  return { process, state, record, on };
}

const commands = (reaction: ProcessReaction) => (reaction.emit ?? []).map((e) => ('command' in e ? (e as CommandEmission).command : e));

describe('the hand flow process manager', () => {
  it('starts on HandStarted and follows only that hand', () => {
    const { process, state, on } = flow();
    expect(state).toMatchObject({ handId: HAND, tableId: 't', actionTimeoutMs: 1000, status: 'playing' });
    expect(process.onHandStarted(new HandStarted('t-hand-2', 2, 'OMAHA', 0, 1, 2, 5, 10, PLAYERS, 't', 1000), state)).toEqual({});
    expect(on(process.onActionTaken, new ActionTaken('sb', 'FOLD', 0, 100, 15, 0, 'bb'), 5, 'other-hand')).toEqual({});
    const fresh = new HandFlowProcess();
    expect(fresh.onActionTaken(new ActionTaken('sb', 'FOLD', 0, 100, 15, 0, 'bb'), fresh.initialState(), context, envelopeOf('hand', HAND, 5))).toEqual({});
  });

  it('posts the small blind, then the big blind, once the cards are dealt', () => {
    const { process, on } = flow();
    const dealt = new CardsDealt('t', 1, 'TEXAS_HOLDEM', PLAYERS.map((p) => ({ ...p, holeCards: [] })), [], 0, 5, 10, 'seed');
    expect(commands(on(process.onCardsDealt, dealt, 1))).toEqual([
      Object.assign(new PostBlind(), { handId: HAND, playerId: 'sb', blindType: 'small', amount: 5 }),
      Object.assign(new PostBlind(), { handId: HAND, playerId: 'bb', blindType: 'big', amount: 10 }),
    ]);
  });

  it('starts the clock of the player to act and stops the previous one', () => {
    const { process, state, on } = flow();
    expect(on(process.onBlindPosted, new BlindPosted('sb', 'small', 5, 95, 5, null, 0), 2)).toEqual({ events: [new BetSeen('sb', 95, false)], cancel: ['action'] });
    const big = on(process.onBlindPosted, new BlindPosted('bb', 'big', 10, 490, 15, 'btn', 10), 3);
    expect(big).toEqual({
      events: [new BetSeen('bb', 490, false), new TurnStarted('btn', 10, 3)],
      cancel: ['action'],
      schedule: [{ name: 'action', afterMs: 1000, payload: { playerId: 'btn', amountToCall: 10, handSequence: 3 } }],
    });
    expect(state.actionOn).toBe('btn');
    on(process.onActionTaken, new ActionTaken('btn', 'FOLD', 0, 500, 15, 5, 'sb'), 4);
    expect(state.players.find((p) => p.playerId === 'btn')!.folded).toBe(true);
  });

  it.each([
    ['PREFLOP', 3],
    ['FLOP', 1],
    ['TURN', 1],
  ] as const)("deals the next street after the %s round in Hold'em", (phase, count) => {
    const { process, on } = flow();
    expect(commands(on(process.onRoundComplete, new BettingRoundComplete(phase)))).toEqual([Object.assign(new DealCommunityCards(), { handId: HAND, count })]);
  });

  it('goes to the showdown after the river, asking everyone still in to show', () => {
    const { process, state, on } = flow();
    on(process.onActionTaken, new ActionTaken('btn', 'FOLD', 0, 500, 15, 5, 'sb'));
    const reaction = on(process.onRoundComplete, new BettingRoundComplete('RIVER'));
    expect(reaction.events).toEqual([new ShowdownStarted(['sb', 'bb'])]);
    expect(commands(reaction)).toEqual(['sb', 'bb'].map((playerId) => Object.assign(new RevealCards(), { handId: HAND, playerId, muck: false })));
    expect(state.status).toBe('showdown');
  });

  it('goes to the showdown at once when one player is left', () => {
    const { process, on } = flow();
    on(process.onActionTaken, new ActionTaken('btn', 'FOLD', 0, 500, 15, 5, 'sb'));
    on(process.onActionTaken, new ActionTaken('sb', 'FOLD', 0, 95, 15, 0, null));
    expect(on(process.onRoundComplete, new BettingRoundComplete('PREFLOP')).events).toEqual([new ShowdownStarted(['bb'])]);
  });

  it('in Five Card Draw opens the draw with its clock, then bets once more, then shows down', () => {
    const { process, on } = flow('FIVE_CARD_DRAW');
    expect(on(process.onRoundComplete, new BettingRoundComplete('PREFLOP'))).toEqual({ cancel: ['action'], schedule: [{ name: 'draw', afterMs: 1000 }] });
    expect(on(process.onDrawCompleted, new DrawCompleted('sb', [], [], null))).toEqual({});
    expect(on(process.onDrawCompleted, new DrawCompleted('bb', [], [], 'sb'), 9)).toMatchObject({ cancel: ['draw', 'action'], events: [new TurnStarted('sb', 0, 9)] });
    expect(on(process.onRoundComplete, new BettingRoundComplete('DRAW')).events).toEqual([new ShowdownStarted(['sb', 'bb', 'btn'])]);
  });

  it('awards main and side pots once the last contender has shown', () => {
    const { process, state, record, on } = flow();
    // sb went all-in for 100; bb and btn put in 200 each.
    record({ events: [new BetSeen('sb', 0, false), new BetSeen('bb', 300, false), new BetSeen('btn', 300, false), new BoardSeen(['2c', '7d', '9h', 'Js', 'Kd'])] });
    on(process.onCommunityCards, new CommunityCardsDealt(['Kd'], 'RIVER', ['2c', '7d', '9h', 'Js', 'Kd'], null));
    on(process.onRoundComplete, new BettingRoundComplete('RIVER'));
    expect(on(process.onCardsRevealed, new CardsRevealed('sb', ['Ks', 'Kh'], 'THREE_OF_A_KIND'))).toEqual({ events: [new HandShown('sb', ['Ks', 'Kh'])] });
    on(process.onCardsRevealed, new CardsRevealed('bb', ['Qs', 'Qh'], 'PAIR'));
    const last = on(process.onCardsRevealed, new CardsRevealed('btn', ['3d', '4d'], 'HIGH_CARD'));
    expect(commands(last)).toEqual([
      Object.assign(new AwardPot(), {
        handId: HAND,
        awards: [
          { playerId: 'sb', amount: 300 },
          { playerId: 'bb', amount: 200 },
        ],
      }),
    ]);
    expect(on(process.onPotAwarded, new PotAwarded([]))).toEqual({ events: [expect.any(Object)], cancel: ['action', 'draw'] });
    expect(state.status).toBe('complete');
    expect(on(process.onActionTaken, new ActionTaken('sb', 'CHECK', 0, 0, 0, 0, 'bb'))).toEqual({});
  });

  describe('timeouts', () => {
    it('folds a player facing a bet and checks one with nothing to call, only if the hand has not moved', () => {
      const { process, state } = flow();
      const fold = process.onActionTimeout({ playerId: 'btn', amountToCall: 10, handSequence: 3 }, state);
      expect(fold.emit).toEqual([
        expect.objectContaining({ command: Object.assign(new PlayerAction(), { handId: HAND, playerId: 'btn', action: 'FOLD' }), expectedSequence: 3 }),
      ]);
      const check = process.onActionTimeout({ playerId: 'bb', amountToCall: 0, handSequence: 7 }, state);
      expect(check.emit).toEqual([expect.objectContaining({ command: expect.objectContaining({ playerId: 'bb', action: 'CHECK' }), expectedSequence: 7 })]);
    });

    it('has everyone still to draw stand pat', () => {
      const { process, state } = flow('FIVE_CARD_DRAW');
      expect(commands(process.onDrawTimeout(undefined, state))).toEqual(
        ['sb', 'bb', 'btn'].map((playerId) => Object.assign(new RequestDraw(), { handId: HAND, playerId, discardIndices: [] })),
      );
    });

    it('does nothing once the hand is over', () => {
      const { process, state, record } = flow();
      record({ events: [new ShowdownStarted(['bb'])] });
      expect(process.onActionTimeout({ playerId: 'bb', amountToCall: 0, handSequence: 3 }, state)).toEqual({});
      expect(process.onDrawTimeout(undefined, state)).toEqual({});
    });
  });

  it('records its start with what the hand needs and nothing else', () => {
    expect(flow().process.onHandStarted(started(), new HandFlowProcess().initialState())).toEqual({
      events: [new HandFlowStarted(HAND, 't', 'TEXAS_HOLDEM', 1000, 0, PLAYERS)],
    });
  });
});
