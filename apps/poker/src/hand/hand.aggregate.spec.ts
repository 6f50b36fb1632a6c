import { ErrorCode } from '@nest-es/core';
import { newDeck, parseCards, shuffledDeck, type Variant, VARIANTS } from '../cards/index.js';
import { HandAggregate } from './hand.aggregate.js';
import { AwardPot, type BettingAction, type BlindType, DealCards, DealCommunityCards, PlayerAction, PostBlind, RequestDraw, RevealCards } from './hand.commands.js';
import {
  ActionTaken,
  BettingRoundComplete,
  BlindPosted,
  CardsDealt,
  CardsMucked,
  CardsRevealed,
  CommunityCardsDealt,
  DrawCompleted,
  HandComplete,
  PotAwarded,
} from './hand.events.js';
import type { HandState } from './hand.state.js';
import { AggregateFixture, expectRefusal, type FixtureOutcome } from '@nest-es/core/testing';

const HAND = 'table-1-hand-1';
const context = { aggregateId: HAND };

// Dealer alice at seat 0; listed clockwise from the seat after the dealer, as the table sends them:
// bob (1) posts the small blind, carol (2) the big one, alice acts first preflop, bob first after.
const THREE = [
  { playerId: 'bob', position: 1, stack: 1000 },
  { playerId: 'carol', position: 2, stack: 1000 },
  { playerId: 'alice', position: 0, stack: 1000 },
];
// Heads-up the dealer alice posts the small blind and acts first preflop; bob acts first after.
const TWO = [
  { playerId: 'bob', position: 1, stack: 1000 },
  { playerId: 'alice', position: 0, stack: 1000 },
];

const deal = (fields: Partial<DealCards> = {}) =>
  Object.assign(new DealCards(), {
    handId: HAND,
    tableId: 'table-1',
    handNumber: 1,
    variant: 'TEXAS_HOLDEM',
    players: THREE,
    dealerPosition: 0,
    smallBlind: 5,
    bigBlind: 10,
    ...fields,
  });
const blind = (playerId: string, blindType: BlindType, amount: number) => Object.assign(new PostBlind(), { handId: HAND, playerId, blindType, amount });
const act = (playerId: string, action: BettingAction, amount?: number) => Object.assign(new PlayerAction(), { handId: HAND, playerId, action, amount });
const street = (count: number) => Object.assign(new DealCommunityCards(), { handId: HAND, count });
const draw = (playerId: string, ...discardIndices: number[]) => Object.assign(new RequestDraw(), { handId: HAND, playerId, discardIndices });
const reveal = (playerId: string, muck?: boolean) => Object.assign(new RevealCards(), { handId: HAND, playerId, muck });
const award = () => Object.assign(new AwardPot(), { handId: HAND });

/** A full deck whose top deals these hole cards (one at a time round-robin), then `next`. */
function riggedDeck(holes: string[], next = ''): string[] {
  const hands = holes.map(parseCards);
  const top = hands[0].flatMap((_, round) => hands.map((hand) => hand[round]));
  top.push(...parseCards(next));
  return [...top, ...newDeck().filter((card) => !top.includes(card))];
}

const newHand = () => AggregateFixture.for<HandState>(HandAggregate);

/** Runs commands in order, each on the events of the ones before; fails the test on a refusal. */
async function play(fixture: AggregateFixture<HandState>, ...commands: object[]): Promise<FixtureOutcome<HandState>> {
  let outcome!: FixtureOutcome<HandState>;
  for (const command of commands) {
    outcome = await fixture.whenThenGiven(command, context);
    if (outcome.error) throw new Error(`${command.constructor.name} refused: ${outcome.error.message}`);
  }
  return outcome;
}

/** Dealt and blinds in: alice to act, 10 to call. */
async function preflop(fields: Partial<DealCards> = {}) {
  const fixture = newHand();
  await play(fixture, deal(fields), blind('bob', 'small', 5), blind('carol', 'big', 10));
  return fixture;
}

/** Preflop called round: on the flop, bob to act. */
async function onFlop(fields: Partial<DealCards> = {}) {
  const fixture = await preflop(fields);
  await play(fixture, act('alice', 'CALL'), act('bob', 'CALL'), act('carol', 'CHECK'));
  return fixture;
}

/** The last two events of a move that ends the hand: the pot awarded, and the hand complete. */
function ending(outcome: FixtureOutcome<HandState>): [PotAwarded, HandComplete] {
  expect(types(outcome).slice(-2)).toEqual(['PotAwarded', 'HandComplete']);
  expect(outcome.state).toMatchObject({ phase: 'COMPLETE', status: 'complete', pot: 0, actionOn: null });
  return outcome.events.slice(-2) as [PotAwarded, HandComplete];
}

const types = (outcome: FixtureOutcome<unknown>) => outcome.events.map((event) => event.constructor.name);

describe('HandAggregate', () => {
  describe('DealCards', () => {
    it('deals an explicit deck one card at a time round-robin in players order', async () => {
      const deck = riggedDeck(['As Ah', 'Kd Kc', '7s 2d']);
      const outcome = await newHand().when(deal({ deck, seed: 'ignored' }), context);
      expect(outcome.events).toEqual([
        new CardsDealt(
          'table-1',
          1,
          'TEXAS_HOLDEM',
          [
            { playerId: 'bob', position: 1, stack: 1000, holeCards: ['As', 'Ah'] },
            { playerId: 'carol', position: 2, stack: 1000, holeCards: ['Kd', 'Kc'] },
            { playerId: 'alice', position: 0, stack: 1000, holeCards: ['7s', '2d'] },
          ],
          deck.slice(6),
          0,
          5,
          10,
          null,
        ),
      ]);
      expect(outcome.state).toMatchObject({ phase: 'PREFLOP', status: 'posting_blinds', deck: deck.slice(6), pot: 0, actionOn: null, seed: null });
      expect(outcome.state.players[0]).toEqual({
        playerId: 'bob',
        position: 1,
        stack: 1000,
        holeCards: ['As', 'Ah'],
        betThisRound: 0,
        totalInvested: 0,
        folded: false,
        allIn: false,
        hasActed: false,
        hasDrawn: false,
        shown: null,
      });
    });

    it('deals the same cards from the same seed, and records it', async () => {
      const first = (await newHand().when(deal({ seed: 'seed-1' }), context)).events[0] as CardsDealt;
      const again = (await newHand().when(deal({ seed: 'seed-1' }), context)).events[0] as CardsDealt;
      const other = (await newHand().when(deal({ seed: 'seed-2' }), context)).events[0] as CardsDealt;
      expect(again).toEqual(first);
      expect(other.players).not.toEqual(first.players);
      expect(first.seed).toBe('seed-1');
      const shuffled = shuffledDeck('seed-1');
      expect(first.players.map((p) => p.holeCards)).toEqual([
        [shuffled[0], shuffled[3]],
        [shuffled[1], shuffled[4]],
        [shuffled[2], shuffled[5]],
      ]);
      expect(first.remainingDeck).toEqual(shuffled.slice(6));
    });

    it('takes a numeric seed', async () => {
      const dealt = (await newHand().when(deal({ seed: 42 }), context)).events[0] as CardsDealt;
      expect(dealt.seed).toBe(42);
      expect(dealt.remainingDeck).toEqual(shuffledDeck(42).slice(6));
    });

    it('draws a random seed when given neither, and records it so replays deal the same', async () => {
      const dealt = (await newHand().when(deal(), context)).events[0] as CardsDealt;
      expect(typeof dealt.seed).toBe('string');
      expect(dealt.remainingDeck).toEqual(shuffledDeck(dealt.seed!).slice(6));
    });

    it.each([
      ['OMAHA', 4],
      ['FIVE_CARD_DRAW', 5],
    ] as [Variant, number][])('deals %s %i hole cards each', async (variant, count) => {
      const dealt = (await newHand().when(deal({ variant, seed: 1 }), context)).events[0] as CardsDealt;
      expect(dealt.players.every((p) => p.holeCards.length === count)).toBe(true);
      expect(dealt.remainingDeck).toHaveLength(52 - 3 * count);
      expect(new Set([...dealt.players.flatMap((p) => p.holeCards), ...dealt.remainingDeck]).size).toBe(52);
    });

    it('copies the event into state rather than aliasing its arrays', () => {
      const aggregate = new HandAggregate();
      const state = aggregate.initialState();
      const event = new CardsDealt('t', 1, 'TEXAS_HOLDEM', [{ playerId: 'a', position: 0, stack: 10, holeCards: ['As', 'Ks'] }], ['2c'], 0, 1, 2, 's');
      aggregate.onDealt(state, event);
      event.players[0].holeCards.push('Qs');
      event.remainingDeck.push('3c');
      expect(state.players[0].holeCards).toEqual(['As', 'Ks']);
      expect(state.deck).toEqual(['2c']);
    });

    it('refuses a hand already dealt', async () => {
      const fixture = newHand();
      await play(fixture, deal());
      expectRefusal(await fixture.when(deal(), context), ErrorCode.FAILED_PRECONDITION, 'the hand is already dealt');
    });

    it.each([
      [{ players: THREE.slice(0, 1) }, 'players must list 2 to 10, got 1'],
      [{ players: [THREE[0], THREE[0]] }, 'players must be distinct, got bob, bob'],
      [{ players: [THREE[0], { ...THREE[1], position: 1 }] }, 'positions must be distinct, got 1, 1'],
      [{ dealerPosition: 5 }, "dealerPosition 5 is not one of the players' positions 1, 2, 0"],
      [{ smallBlind: 20 }, 'smallBlind 20 must not exceed bigBlind 10'],
      [{ bigBlind: 0 }, 'bigBlind must be a positive whole number of chips, got 0'],
      [{ players: [THREE[0], { ...THREE[1], stack: 0 }] }, 'players must be a list of {playerId, position 0 to 9, stack > 0}'],
      [{ players: [THREE[0], { ...THREE[1], position: 10 }] }, 'players must be a list of'],
      [{ variant: 'STUD' }, 'variant must be one of TEXAS_HOLDEM, OMAHA, FIVE_CARD_DRAW'],
      [{ deck: newDeck().slice(1) }, 'deck must be the full deck: 52 distinct cards'],
      [{ deck: [...newDeck().slice(1), '3c'] }, 'deck must be the full deck: 52 distinct cards'],
      [{ deck: [...newDeck().slice(1), 'Xx'] }, 'deck must be the full deck: 52 distinct cards'],
      [{ seed: '' }, 'seed must be a whole number or a string of 1 to 200 characters'],
      [{ seed: 1.5 }, 'seed must be a whole number or a string of 1 to 200 characters'],
    ] as [Partial<DealCards>, string][])('refuses %j as INVALID_ARGUMENT', async (fields, message) => {
      expectRefusal(await newHand().when(deal(fields), context), ErrorCode.INVALID_ARGUMENT, message);
    });
  });

  describe('PostBlind', () => {
    it('posts the small then the big blind; then the player after the big blind is to act', async () => {
      const fixture = newHand();
      await play(fixture, deal());
      const small = await play(fixture, blind('bob', 'small', 5));
      expect(small.events).toEqual([new BlindPosted('bob', 'small', 5, 995, 5, null, 0)]);
      const big = await play(fixture, blind('carol', 'big', 10));
      expect(big.events).toEqual([new BlindPosted('carol', 'big', 10, 990, 15, 'alice', 10)]);
      expect(big.state).toMatchObject({ status: 'betting', currentBet: 10, minRaise: 10, pot: 15, actionOn: 'alice' });
      expect(big.state.players[1]).toMatchObject({ betThisRound: 10, totalInvested: 10, hasActed: false });
    });

    it('heads-up, has the dealer post the small blind and act first', async () => {
      const fixture = newHand();
      const outcome = await play(fixture, deal({ players: TWO }), blind('alice', 'small', 5), blind('bob', 'big', 10));
      expect(outcome.state.actionOn).toBe('alice');
    });

    it('posts what is left of a short stack, all-in', async () => {
      const fixture = newHand();
      await play(fixture, deal({ players: [{ ...THREE[0], stack: 3 }, THREE[1], THREE[2]] }));
      const outcome = await play(fixture, blind('bob', 'small', 5));
      expect(outcome.events).toEqual([new BlindPosted('bob', 'small', 3, 0, 3, null, 0)]);
      expect(outcome.state.players[0].allIn).toBe(true);
    });

    it('closes the round at once when the blinds leave nobody to bet against: the board runs out to the showdown', async () => {
      const fixture = newHand();
      const deck = riggedDeck(['Kc Kd', 'As Ah'], '2c 7d 9h Js 4d');
      await play(fixture, deal({ players: [{ ...TWO[0], stack: 10 }, { ...TWO[1], stack: 5 }], deck }), blind('alice', 'small', 5));
      const outcome = await play(fixture, blind('bob', 'big', 10));
      expect(outcome.events.slice(0, 2)).toEqual([new BlindPosted('bob', 'big', 10, 0, 15, null, 0), new BettingRoundComplete('PREFLOP', null, false, false, true)]);
      expect(types(outcome).slice(2, 10)).toEqual(['CommunityCardsDealt', 'BettingRoundComplete', 'CommunityCardsDealt', 'BettingRoundComplete', 'CommunityCardsDealt', 'BettingRoundComplete', 'CardsRevealed', 'CardsRevealed']);
      // alice's aces win the 10 both put in; the 5 of bob's big blind nobody could call go back to him.
      expect(ending(outcome)[1]).toEqual(new HandComplete('table-1', HAND, { bob: 5, alice: 10 }, { bob: -5, alice: 5 }));
    });

    it('refuses before dealing, the big before the small, twice, the wrong player, and after the blinds', async () => {
      expectRefusal(await newHand().when(blind('bob', 'small', 5), context), ErrorCode.FAILED_PRECONDITION, 'the hand has not been dealt');
      const fixture = newHand();
      await play(fixture, deal());
      expectRefusal(await fixture.when(blind('carol', 'big', 10), context), ErrorCode.FAILED_PRECONDITION, 'the small blind must be posted before the big blind');
      expectRefusal(await fixture.when(blind('alice', 'small', 5), context), ErrorCode.FAILED_PRECONDITION, 'alice at seat 0 is not the small blind: seat 1 is');
      expectRefusal(await fixture.when(blind('dave', 'small', 5), context), ErrorCode.FAILED_PRECONDITION, 'dave is not in this hand');
      await play(fixture, blind('bob', 'small', 5));
      expectRefusal(await fixture.when(blind('bob', 'small', 5), context), ErrorCode.FAILED_PRECONDITION, 'the small blind is already posted');
      expectRefusal(await fixture.when(blind('bob', 'big', 10), context), ErrorCode.FAILED_PRECONDITION, 'bob at seat 1 is not the big blind: seat 2 is');
      await play(fixture, blind('carol', 'big', 10));
      expectRefusal(await fixture.when(blind('carol', 'big', 10), context), ErrorCode.FAILED_PRECONDITION, 'blinds are posted right after dealing; the hand is in phase PREFLOP (betting)');
    });

    it('refuses a non-positive amount or an unknown blind type', async () => {
      const fixture = newHand();
      await play(fixture, deal());
      expectRefusal(await fixture.when(blind('bob', 'small', 0), context), ErrorCode.INVALID_ARGUMENT, 'amount must be a positive whole number of chips, got 0');
      expectRefusal(await fixture.when(blind('bob', 'ante' as BlindType, 5), context), ErrorCode.INVALID_ARGUMENT, "blindType must be 'small' or 'big'");
    });
  });

  describe('PlayerAction', () => {
    it('calls: puts in what is owed and passes the turn clockwise', async () => {
      const outcome = await play(await preflop(), act('alice', 'CALL'));
      expect(outcome.events).toEqual([new ActionTaken('alice', 'CALL', 10, 990, 25, 5, 'bob')]);
    });

    it('gives the big blind the option, and closes the round when it checks', async () => {
      const fixture = await preflop();
      await play(fixture, act('alice', 'CALL'), act('bob', 'CALL'));
      expect(fixture.state.actionOn).toBe('carol');
      const outcome = await play(fixture, act('carol', 'CHECK'));
      expect(outcome.events.slice(0, 2)).toEqual([new ActionTaken('carol', 'CHECK', 0, 990, 30, 0, null), new BettingRoundComplete('PREFLOP', null, false, false, true)]);
      expect(types(outcome)).toEqual(['ActionTaken', 'BettingRoundComplete', 'CommunityCardsDealt']);
      expect(outcome.state).toMatchObject({ phase: 'FLOP', status: 'betting', actionOn: 'bob', pot: 30 });
    });

    it('raises by an increment over the current bet; a raise re-opens the action for everyone else', async () => {
      const fixture = await preflop();
      const raised = await play(fixture, act('alice', 'CALL'), act('bob', 'RAISE', 20));
      expect(raised.events).toEqual([new ActionTaken('bob', 'RAISE', 25, 970, 50, 20, 'carol')]);
      expect(raised.state).toMatchObject({ currentBet: 30, minRaise: 20 });
      await play(fixture, act('carol', 'CALL'));
      expect(fixture.state.actionOn).toBe('alice');
      const closed = await play(fixture, act('alice', 'CALL'));
      expect(types(closed)).toEqual(['ActionTaken', 'BettingRoundComplete', 'CommunityCardsDealt']);
      expect(closed.state.pot).toBe(90);
    });

    it('bets on a new street, then the others must call, raise or fold', async () => {
      const fixture = await onFlop();
      await play(fixture, act('bob', 'CHECK'));
      const bet = await play(fixture, act('carol', 'BET', 40));
      expect(bet.events).toEqual([new ActionTaken('carol', 'BET', 40, 950, 70, 40, 'alice')]);
      expect(bet.state).toMatchObject({ currentBet: 40, minRaise: 40 });
      await play(fixture, act('alice', 'FOLD'));
      const closed = await play(fixture, act('bob', 'CALL'));
      expect(closed.events.slice(0, 2)).toEqual([new ActionTaken('bob', 'CALL', 40, 950, 110, 0, null), new BettingRoundComplete('FLOP', null, false, false, true)]);
    });

    it('records putting in the whole stack as ALL_IN, whatever the action asked', async () => {
      const fixture = await preflop({ players: [THREE[0], THREE[1], { ...THREE[2], stack: 8 }] });
      const outcome = await play(fixture, act('alice', 'CALL'));
      expect(outcome.events).toEqual([new ActionTaken('alice', 'ALL_IN', 8, 0, 23, 5, 'bob')]);
      expect(outcome.state.players[2].allIn).toBe(true);
      expectRefusal(await fixture.when(act('alice', 'FOLD'), context), ErrorCode.FAILED_PRECONDITION, 'alice is all-in');
    });

    it('lets a short stack go all-in below the minimum bet', async () => {
      const fixture = await onFlop({ players: [{ ...THREE[0], stack: 15 }, THREE[1], THREE[2]] });
      const outcome = await play(fixture, act('bob', 'BET', 5));
      expect(outcome.events).toEqual([new ActionTaken('bob', 'ALL_IN', 5, 0, 35, 5, 'carol')]);
    });

    it('goes ALL_IN with the whole stack, raising when it exceeds the bet', async () => {
      const outcome = await play(await preflop(), act('alice', 'ALL_IN'));
      expect(outcome.events).toEqual([new ActionTaken('alice', 'ALL_IN', 1000, 0, 1015, 995, 'bob')]);
      expect(outcome.state).toMatchObject({ currentBet: 1000, minRaise: 990 });
    });

    it('ends the hand when everyone else folds: the last player left takes the pot', async () => {
      const fixture = await preflop();
      await play(fixture, act('alice', 'FOLD'));
      const outcome = await play(fixture, act('bob', 'FOLD'));
      expect(types(outcome)).toEqual(['ActionTaken', 'BettingRoundComplete', 'PotAwarded', 'HandComplete']);
      expect(outcome.events[0]).toEqual(new ActionTaken('bob', 'FOLD', 0, 995, 15, 0, null));
      ending(outcome);
    });

    it('refuses out of turn, strangers, folded players, and outside a betting round', async () => {
      const fixture = newHand();
      await play(fixture, deal());
      expectRefusal(await fixture.when(act('alice', 'CALL'), context), ErrorCode.FAILED_PRECONDITION, 'no betting round is open; the hand is in phase PREFLOP (posting blinds)');
      await play(fixture, blind('bob', 'small', 5), blind('carol', 'big', 10));
      expectRefusal(await fixture.when(act('bob', 'CALL'), context), ErrorCode.FAILED_PRECONDITION, "it is alice's turn, not bob's");
      expectRefusal(await fixture.when(act('dave', 'CALL'), context), ErrorCode.FAILED_PRECONDITION, 'dave is not in this hand');
      await play(fixture, act('alice', 'FOLD'));
      expectRefusal(await fixture.when(act('alice', 'CALL'), context), ErrorCode.FAILED_PRECONDITION, 'alice has folded');
      expectRefusal(await newHand().when(act('alice', 'CALL'), context), ErrorCode.FAILED_PRECONDITION, 'the hand has not been dealt');
    });

    it.each([
      [act('alice', 'CHECK'), 'cannot check facing a bet: 10 to call'],
      [act('alice', 'BET', 20), 'cannot bet into a bet of 10: raise instead'],
      [act('alice', 'RAISE', 5), 'raise 5 is below the minimum 10'],
      [act('alice', 'RAISE'), 'RAISE needs an amount'],
      [act('alice', 'RAISE', -5), 'amount must be a positive whole number of chips, got -5'],
      [act('alice', 'SHOVE' as BettingAction), 'action must be one of FOLD, CHECK, CALL, BET, RAISE, ALL_IN'],
    ])('refuses %j preflop as INVALID_ARGUMENT', async (command, message) => {
      expectRefusal(await (await preflop()).when(command, context), ErrorCode.INVALID_ARGUMENT, message);
    });

    it.each([
      [act('bob', 'CALL'), 'nothing to call: check instead'],
      [act('bob', 'RAISE', 20), 'cannot raise: there is no bet; bet instead'],
      [act('bob', 'BET', 5), 'bet 5 is below the minimum 10'],
      [act('bob', 'BET'), 'BET needs an amount'],
    ])('refuses %j on an unopened street as INVALID_ARGUMENT', async (command, message) => {
      expectRefusal(await (await onFlop()).when(command, context), ErrorCode.INVALID_ARGUMENT, message);
    });

    it('refuses betting or raising more than the stack', async () => {
      expectRefusal(await (await onFlop()).when(act('bob', 'BET', 991), context), ErrorCode.FAILED_PRECONDITION, 'bet 991 needs 991 chips but the stack is 990');
      expectRefusal(await (await preflop()).when(act('alice', 'RAISE', 995), context), ErrorCode.FAILED_PRECONDITION, 'raise 995 needs 1005 chips but the stack is 1000');
    });
  });

  describe('streets', () => {
    it('deals the flop off the top as the preflop round closes; the first player after the dealer acts', async () => {
      const deck = riggedDeck(['As Ah', 'Kd Kc', '7s 2d'], 'Ks 9h 4c 3d Jc');
      const fixture = await preflop({ deck });
      const outcome = await play(fixture, act('alice', 'CALL'), act('bob', 'CALL'), act('carol', 'CHECK'));
      expect(outcome.events.slice(1)).toEqual([new BettingRoundComplete('PREFLOP', null, false, false, true), new CommunityCardsDealt(['Ks', '9h', '4c'], 'FLOP', ['Ks', '9h', '4c'], 'bob')]);
      expect(outcome.state).toMatchObject({ phase: 'FLOP', status: 'betting', currentBet: 0, minRaise: 10, deck: deck.slice(9), actionOn: 'bob' });
      expect(outcome.state.players.map((p) => p.betThisRound)).toEqual([0, 0, 0]);
    });

    it('deals the turn and the river one card each; the river round leads to SHOWDOWN', async () => {
      const fixture = await onFlop({ deck: riggedDeck(['As Ah', 'Kd Kc', '7s 2d'], 'Ks 9h 4c 3d Jc') });
      const checkAround = [act('bob', 'CHECK'), act('carol', 'CHECK'), act('alice', 'CHECK')];
      expect((await play(fixture, ...checkAround)).events.at(-1)).toEqual(new CommunityCardsDealt(['3d'], 'TURN', ['Ks', '9h', '4c', '3d'], 'bob'));
      expect((await play(fixture, ...checkAround)).events.at(-1)).toEqual(new CommunityCardsDealt(['Jc'], 'RIVER', ['Ks', '9h', '4c', '3d', 'Jc'], 'bob'));
      const closed = await play(fixture, ...checkAround);
      // Checked around: bob, first left of the dealer, shows first; carol's trips can still win, alice's 7-high cannot.
      expect(closed.events.slice(1)).toEqual([
        new BettingRoundComplete('RIVER', 'bob', true),
        new CardsRevealed('bob', ['As', 'Ah'], 'PAIR', 'carol'),
        new CardsRevealed('carol', ['Kd', 'Kc'], 'THREE_OF_A_KIND', 'alice'),
      ]);
      expect(closed.state).toMatchObject({ phase: 'SHOWDOWN', status: 'showdown', actionOn: 'alice' });
      expectRefusal(await fixture.when(street(1), context), ErrorCode.FAILED_PRECONDITION, 'the hand is in phase SHOWDOWN');
    });

    /** Alice, bob and carol called the preflop round, recorded as before the hand dealt its streets itself. */
    const closedBefore = async (fields: Partial<DealCards> = {}) => {
      const fixture = await preflop(fields);
      await play(fixture, act('alice', 'CALL'), act('bob', 'CALL'));
      const [checked] = (await fixture.when(act('carol', 'CHECK'), context)).events;
      return fixture.given(checked, new BettingRoundComplete('PREFLOP'));
    };

    it('in a round stored before the hand dealt its streets itself, deals the street on DealCommunityCards', async () => {
      const deck = riggedDeck(['As Ah', 'Kd Kc', '7s 2d'], 'Ks 9h 4c 3d Jc');
      const fixture = await closedBefore({ deck });
      expect(fixture.state).toMatchObject({ phase: 'PREFLOP', status: 'round_closed' });
      const outcome = await play(fixture, street(3));
      expect(outcome.events).toEqual([new CommunityCardsDealt(['Ks', '9h', '4c'], 'FLOP', ['Ks', '9h', '4c'], 'bob')]);
      expect(outcome.state).toMatchObject({ phase: 'FLOP', status: 'betting', deck: deck.slice(9) });
    });

    it('refuses DealCommunityCards while the round is open, or the wrong number of cards', async () => {
      expectRefusal(await (await preflop()).when(street(3), context), ErrorCode.FAILED_PRECONDITION, 'community cards are dealt once a betting round before the river has closed; the hand is in phase PREFLOP (betting)');
      expectRefusal(await (await onFlop()).when(street(1), context), ErrorCode.FAILED_PRECONDITION, 'the hand is in phase FLOP (betting)');
      const closed = await closedBefore();
      expectRefusal(await closed.when(street(1), context), ErrorCode.INVALID_ARGUMENT, 'the FLOP is 3 card(s), got 1');
      expectRefusal(await closed.when(street(0), context), ErrorCode.INVALID_ARGUMENT, 'count must be a positive number of cards, got 0');
    });

    it('refuses in Five Card Draw as INVALID_ARGUMENT', async () => {
      expectRefusal(await (await preflop({ variant: 'FIVE_CARD_DRAW' })).when(street(3), context), ErrorCode.INVALID_ARGUMENT, 'community cards are not dealt in FIVE_CARD_DRAW');
    });
  });

  describe('RequestDraw', () => {
    const draws = async () => {
      const deck = riggedDeck(['Ah Ad 7c 4s 2h', 'Kc Kd Ks 9h 3c', '5c 6d 8h Td Jc'], 'Ac 9s 2c 3d');
      const fixture = await preflop({ variant: 'FIVE_CARD_DRAW', deck });
      await play(fixture, act('alice', 'CALL'), act('bob', 'CALL'));
      const closed = await play(fixture, act('carol', 'CHECK'));
      expect(closed.state).toMatchObject({ phase: 'DRAW', status: 'drawing', actionOn: null });
      return fixture;
    };

    it('replaces the discarded cards with the top of the deck, in place', async () => {
      const fixture = await draws();
      const outcome = await play(fixture, draw('bob', 2, 3, 4));
      expect(outcome.events).toEqual([new DrawCompleted('bob', ['7c', '4s', '2h'], ['Ac', '9s', '2c'], null)]);
      expect(outcome.state.players[0].holeCards).toEqual(['Ah', 'Ad', 'Ac', '9s', '2c']);
      expect(outcome.state.deck[0]).toBe('3d');
    });

    it('lets a player stand pat; the last draw opens the final betting round in phase DRAW', async () => {
      const fixture = await draws();
      await play(fixture, draw('bob', 4), draw('carol'));
      const last = await play(fixture, draw('alice', 0));
      expect(last.events).toEqual([new DrawCompleted('alice', ['5c'], ['9s'], 'bob')]);
      expect(last.state).toMatchObject({ phase: 'DRAW', status: 'betting', currentBet: 0, actionOn: 'bob' });
      expect(last.state.players.map((p) => p.holeCards)).toEqual([
        ['Ah', 'Ad', '7c', '4s', 'Ac'],
        ['Kc', 'Kd', 'Ks', '9h', '3c'],
        ['9s', '6d', '8h', 'Td', 'Jc'],
      ]);
    });

    it('draws in turn order from the first player left of the dealer: nobody draws out of turn', async () => {
      const fixture = await draws();
      expectRefusal(await fixture.when(draw('carol', 0), context), ErrorCode.FAILED_PRECONDITION, "it is bob's turn to draw, not carol's");
      expectRefusal(await fixture.when(draw('alice', 0), context), ErrorCode.FAILED_PRECONDITION, "it is bob's turn to draw, not alice's");
      await play(fixture, draw('bob', 0));
      expectRefusal(await fixture.when(draw('alice', 0), context), ErrorCode.FAILED_PRECONDITION, "it is carol's turn to draw, not alice's");
      // carol draws the next cards off the deck, as her turn comes, whoever asked first.
      expect((await play(fixture, draw('carol', 0))).events).toEqual([new DrawCompleted('carol', ['Kc'], ['9s'], null)]);
      expect((await play(fixture, draw('alice'))).events).toEqual([new DrawCompleted('alice', [], [], 'bob')]);
    });

    it('skips a folded player in the draw order', async () => {
      const folded = await preflop({ variant: 'FIVE_CARD_DRAW' });
      await play(folded, act('alice', 'CALL'), act('bob', 'FOLD'), act('carol', 'CHECK'));
      expectRefusal(await folded.when(draw('alice'), context), ErrorCode.FAILED_PRECONDITION, "it is carol's turn to draw, not alice's");
      await play(folded, draw('carol'), draw('alice'));
      expect(folded.state).toMatchObject({ status: 'betting', actionOn: 'carol' });
    });

    it('refuses a second draw, a folded player, and drawing before the DRAW phase', async () => {
      const fixture = await draws();
      await play(fixture, draw('bob'));
      expectRefusal(await fixture.when(draw('bob', 1), context), ErrorCode.FAILED_PRECONDITION, 'bob has already drawn');
      expectRefusal(await fixture.when(draw('dave', 1), context), ErrorCode.FAILED_PRECONDITION, 'dave is not in this hand');
      const early = await preflop({ variant: 'FIVE_CARD_DRAW' });
      expectRefusal(await early.when(draw('bob', 1), context), ErrorCode.FAILED_PRECONDITION, 'cards are drawn in the DRAW phase before its betting; the hand is in phase PREFLOP (betting)');
      const folded = await preflop({ variant: 'FIVE_CARD_DRAW' });
      await play(folded, act('alice', 'FOLD'), act('bob', 'CALL'), act('carol', 'CHECK'));
      expectRefusal(await folded.when(draw('alice', 1), context), ErrorCode.FAILED_PRECONDITION, 'alice has folded');
    });

    it('refuses when the deck cannot cover the draw', async () => {
      const ten = Array.from({ length: 10 }, (_, i) => ({ playerId: `p${i}`, position: i, stack: 100 }));
      const fixture = newHand();
      await play(fixture, deal({ variant: 'FIVE_CARD_DRAW', players: ten, seed: 3 }), blind('p1', 'small', 5), blind('p2', 'big', 10));
      for (const id of ['p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9', 'p0', 'p1']) await play(fixture, act(id, 'CALL'));
      await play(fixture, act('p2', 'CHECK'));
      for (const id of ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9']) await play(fixture, draw(id));
      expectRefusal(await fixture.when(draw('p0', 0, 1, 2), context), ErrorCode.FAILED_PRECONDITION, 'only 2 cards are left in the deck, 3 requested');
    });

    it.each([
      [draw('bob', 5), 'discardIndices must be card indices 0 to 4'],
      [draw('bob', 1, 1), 'discardIndices must be card indices without repeats'],
      // One message per field, though the list is also too long.
      [draw('bob', 0, 1, 2, 3, 4, 0), /^RequestDraw is invalid: discardIndices must be at most 5 card indices, got \[0,1,2,3,4,0\]$/],
    ])('refuses %j as INVALID_ARGUMENT', async (command, message) => {
      expectRefusal(await (await draws()).when(command, context), ErrorCode.INVALID_ARGUMENT, message);
    });

    it("refuses drawing in Hold'em and Omaha as INVALID_ARGUMENT", async () => {
      expectRefusal(await (await preflop()).when(draw('alice', 1), context), ErrorCode.INVALID_ARGUMENT, 'drawing is only in FIVE_CARD_DRAW; this hand is TEXAS_HOLDEM');
      expectRefusal(await (await preflop({ variant: 'OMAHA' })).when(draw('alice', 1), context), ErrorCode.INVALID_ARGUMENT, 'this hand is OMAHA');
    });
  });

  describe('RevealCards and AwardPot', () => {
    /** Checked around to the showdown: bob's aces, then carol's trips, shown at once; the pot awarded. */
    const checkedAround = async () => {
      const fixture = await onFlop({ deck: riggedDeck(['As Ah', 'Kd Kc', '7s 2d'], 'Ks 9h 4c 3d Jc') });
      await play(fixture, act('bob', 'BET', 10), act('carol', 'CALL'), act('alice', 'FOLD'), act('bob', 'CHECK'), act('carol', 'CHECK'));
      await play(fixture, act('bob', 'CHECK'));
      return fixture; // pot 50: alice 10, bob 20, carol 20; carol's check closes the river
    };

    /** bob KK makes trips on the board, carol AA a pair; bob bets the river and carol calls. */
    const riverBet = async () => {
      const fixture = await onFlop({ deck: riggedDeck(['Kd Kc', 'As Ah', '7s 2d'], 'Ks 9h 4c 3d Jc') });
      await play(fixture, act('bob', 'BET', 10), act('carol', 'CALL'), act('alice', 'FOLD'), act('bob', 'CHECK'), act('carol', 'CHECK'));
      await play(fixture, act('bob', 'CHECK'), act('carol', 'BET', 20));
      return fixture;
    };

    /** bob raised the river last: his trips are shown, and carol's losing aces are hers to show or muck. */
    const carolToShow = async () => {
      const fixture = await riverBet();
      await play(fixture, act('bob', 'RAISE', 20), act('carol', 'CALL'));
      return fixture; // pot 130: alice 10, bob 60, carol 60
    };

    it('shows at once the hand of the last aggressor of the last round, then each next that can still win; the last shown ends the hand', async () => {
      const fixture = await riverBet();
      const closed = await play(fixture, act('bob', 'CALL'));
      // carol bet last: her aces are shown first; bob's trips beat them, so they are shown in turn.
      expect(closed.events.slice(1)).toEqual([
        new BettingRoundComplete('RIVER', 'carol', true),
        new CardsRevealed('carol', ['As', 'Ah'], 'PAIR', 'bob'),
        new CardsRevealed('bob', ['Kd', 'Kc'], 'THREE_OF_A_KIND', null, true),
        new PotAwarded([{ playerId: 'bob', amount: 90 }]),
        new HandComplete('table-1', HAND, { bob: 1050, carol: 960, alice: 990 }, { bob: 50, carol: -40, alice: -10 }),
      ]);
      ending(closed);
      expect(closed.state.players.map((p) => p.shown)).toEqual(['revealed', 'revealed', null]);
    });

    it('shows first the first player left of the dealer when the last round was checked around', async () => {
      const closed = await play(await checkedAround(), act('carol', 'CHECK'));
      expect(closed.events.slice(2, 4)).toEqual([new CardsRevealed('bob', ['As', 'Ah'], 'PAIR', 'carol'), new CardsRevealed('carol', ['Kd', 'Kc'], 'THREE_OF_A_KIND', null, true)]);
      expect(ending(closed)[0]).toEqual(new PotAwarded([{ playerId: 'carol', amount: 50 }]));
    });

    it('lets the next player in turn muck a losing hand, or show it; either ends the hand', async () => {
      const fixture = await riverBet();
      const closed = await play(fixture, act('bob', 'RAISE', 20), act('carol', 'CALL'));
      // bob raised last: his trips are shown first; carol's pair of aces cannot beat them, so it is her choice.
      expect(closed.events.slice(1)).toEqual([new BettingRoundComplete('RIVER', 'bob', true), new CardsRevealed('bob', ['Kd', 'Kc'], 'THREE_OF_A_KIND', 'carol')]);
      expect(closed.state).toMatchObject({ phase: 'SHOWDOWN', actionOn: 'carol' });
      expectRefusal(await fixture.when(reveal('bob'), context), ErrorCode.FAILED_PRECONDITION, 'bob has already revealed their cards');
      const mucked = await play(fixture, reveal('carol', true));
      expect(mucked.events.slice(0, 2)).toEqual([new CardsMucked('carol', null, true), new PotAwarded([{ playerId: 'bob', amount: 130 }])]);
      ending(mucked);
      expect(mucked.state.players.map((p) => p.shown)).toEqual(['revealed', 'mucked', null]);

      const shown = await carolToShow();
      const revealed = await play(shown, reveal('carol'));
      expect(revealed.events[0]).toEqual(new CardsRevealed('carol', ['As', 'Ah'], 'PAIR', null, true));
      expect(ending(revealed)[0]).toEqual(new PotAwarded([{ playerId: 'bob', amount: 130 }]));
    });

    it('in a showdown stored before the first hand was shown at once, takes the first show as a command: only a losing hand may be mucked', async () => {
      const fixture = await riverBet();
      const [called] = (await fixture.when(act('bob', 'CALL'), context)).events;
      fixture.given(called, new BettingRoundComplete('RIVER', 'carol'));
      expect(fixture.state.players.map((p) => p.shown)).toEqual([null, null, null]);
      expectRefusal(await fixture.when(reveal('bob'), context), ErrorCode.FAILED_PRECONDITION, "it is carol's turn to show, not bob's");
      expectRefusal(await fixture.when(reveal('carol', true), context), ErrorCode.FAILED_PRECONDITION, "only a losing hand may be mucked: carol's can still win");
      // carol's aces are shown; bob's trips beat them, so they are shown in turn with no choice to make.
      const outcome = await play(fixture, reveal('carol'));
      expect(outcome.events.slice(0, 2)).toEqual([new CardsRevealed('carol', ['As', 'Ah'], 'PAIR', 'bob'), new CardsRevealed('bob', ['Kd', 'Kc'], 'THREE_OF_A_KIND', null, true)]);
      ending(outcome);
    });

    it('counts a tie as a hand that can still win: it is shown', async () => {
      const fixture = await preflop({ deck: riggedDeck(['2c 3c', '4d 5d', '6h 7h'], 'Ts Js Qs Ks As') });
      await play(fixture, act('alice', 'CALL'), act('bob', 'FOLD'), act('carol', 'CHECK'));
      await play(fixture, act('carol', 'CHECK'), act('alice', 'CHECK'), act('carol', 'CHECK'), act('alice', 'CHECK'), act('carol', 'CHECK'));
      expect((await play(fixture, act('alice', 'CHECK'))).events.slice(2, 4)).toEqual([
        new CardsRevealed('carol', ['4d', '5d'], 'ROYAL_FLUSH', 'alice'),
        new CardsRevealed('alice', ['6h', '7h'], 'ROYAL_FLUSH', null, true),
      ]);
    });

    it('shows a hand that can win a side pot even when it loses the main pot', async () => {
      // bob is all-in for 100 with the best hand; carol's two pair beat alice's pair for the side pot.
      const fixture = newHand();
      const deck = riggedDeck(['As Ah', 'Kd 9c', 'Qd Qc'], 'Ac Kh 9d 3s 2h');
      await play(fixture, deal({ players: [{ ...THREE[0], stack: 100 }, THREE[1], THREE[2]], deck }), blind('bob', 'small', 5), blind('carol', 'big', 10));
      await play(fixture, act('alice', 'RAISE', 190), act('bob', 'ALL_IN'), act('carol', 'CALL'));
      await play(fixture, act('carol', 'CHECK'), act('alice', 'CHECK'), act('carol', 'CHECK'), act('alice', 'CHECK'), act('carol', 'CHECK'));
      // Checked around: bob (left of the dealer) shows first. alice's queens lose the main pot to his
      // trips but could still win the side pot; so could carol's two pair, which beat them.
      expect((await play(fixture, act('alice', 'CHECK'))).events.slice(2)).toEqual([
        new CardsRevealed('bob', ['As', 'Ah'], 'THREE_OF_A_KIND', 'carol'),
        new CardsRevealed('carol', ['Kd', '9c'], 'TWO_PAIR', 'alice'),
      ]);
      const mucked = await play(fixture, reveal('alice', true));
      expect(mucked.events.slice(0, 2)).toEqual([
        new CardsMucked('alice', null, true),
        new PotAwarded([
          { playerId: 'bob', amount: 300 },
          { playerId: 'carol', amount: 200 },
        ]),
      ]);
      expect(ending(mucked)[1].finalStacks).toEqual({ bob: 300, carol: 1000, alice: 800 });
    });

    it('refuses revealing before the showdown, twice, for a folded player, or once the hand is over', async () => {
      expectRefusal(await (await preflop()).when(reveal('alice'), context), ErrorCode.FAILED_PRECONDITION, 'cards are revealed at the showdown; the hand is in phase PREFLOP (betting)');
      const fixture = await carolToShow();
      expectRefusal(await fixture.when(reveal('bob'), context), ErrorCode.FAILED_PRECONDITION, 'bob has already revealed their cards');
      expectRefusal(await fixture.when(reveal('bob', true), context), ErrorCode.FAILED_PRECONDITION, 'bob has already revealed their cards');
      expectRefusal(await fixture.when(reveal('alice'), context), ErrorCode.FAILED_PRECONDITION, 'alice has folded');
      await play(fixture, reveal('carol', true));
      expectRefusal(await fixture.when(reveal('carol'), context), ErrorCode.FAILED_PRECONDITION, 'cards are revealed at the showdown; the hand is in phase COMPLETE (complete)');
    });

    it('awards the pot to the last player left at once, showing no card', async () => {
      const fixture = await preflop();
      await play(fixture, act('alice', 'FOLD'));
      const folded = await play(fixture, act('bob', 'FOLD'));
      expect(folded.events.slice(1)).toEqual([
        new BettingRoundComplete('PREFLOP', null, false, true),
        new PotAwarded([{ playerId: 'carol', amount: 15 }]),
        new HandComplete('table-1', HAND, { bob: 995, carol: 1005, alice: 1000 }, { bob: -5, carol: 5, alice: 0 }),
      ]);
      ending(folded);
      expect(folded.state.players.map((p) => p.shown)).toEqual([null, null, null]);
    });

    it('in an uncontested showdown stored before the hand awarded its own pot, shows no card and awards the pot on AwardPot', async () => {
      const fixture = await preflop();
      await play(fixture, act('alice', 'FOLD'));
      const [folded] = (await fixture.when(act('bob', 'FOLD'), context)).events;
      fixture.given(folded, new BettingRoundComplete('PREFLOP'));
      expect(fixture.state).toMatchObject({ phase: 'SHOWDOWN', actionOn: null });
      expectRefusal(await fixture.when(reveal('carol'), context), ErrorCode.FAILED_PRECONDITION, 'nobody contests the pot: carol wins it without showing');
      expectRefusal(await fixture.when(reveal('carol', true), context), ErrorCode.FAILED_PRECONDITION, 'nobody contests the pot');
      expect(ending(await play(fixture, award()))[0]).toEqual(new PotAwarded([{ playerId: 'carol', amount: 15 }]));
    });

    it('in a contested showdown stored before the hand awarded its own pot, awards it by the cards shown, then completes the hand', async () => {
      const fixture = await checkedAround();
      const closing = (await fixture.when(act('carol', 'CHECK'), context)).events;
      fixture.given(...closing.slice(0, -2));
      expect(fixture.state).toMatchObject({ phase: 'SHOWDOWN', status: 'showdown' });
      const outcome = await play(fixture, award());
      expect(outcome.events).toEqual([
        new PotAwarded([{ playerId: 'carol', amount: 50 }]),
        new HandComplete('table-1', HAND, { bob: 980, carol: 1030, alice: 990 }, { bob: -20, carol: 30, alice: -10 }),
      ]);
      expect(outcome.state.players.map((p) => p.stack)).toEqual([980, 1030, 990]);
    });

    it('refuses AwardPot before the showdown, before every hand still in is shown or mucked, or once the hand is over', async () => {
      expectRefusal(await (await preflop()).when(award(), context), ErrorCode.FAILED_PRECONDITION, 'the pot is awarded at the showdown; the hand is in phase PREFLOP (betting)');
      const fixture = await carolToShow();
      expectRefusal(await fixture.when(award(), context), ErrorCode.FAILED_PRECONDITION, "the pot is awarded once every hand still in is shown or mucked; carol's is not");
      await play(fixture, reveal('carol', true));
      expectRefusal(await fixture.when(award(), context), ErrorCode.FAILED_PRECONDITION, 'the hand is in phase COMPLETE (complete)');
    });
  });

  describe('full hands', () => {
    /** Chips are conserved: what the players end with is what they started with. */
    const expectConserved = (complete: HandComplete, start: number) => {
      expect(Object.values(complete.finalStacks).reduce((a, b) => a + b, 0)).toBe(start);
      expect(Object.values(complete.stackChanges).reduce((a, b) => a + b, 0)).toBe(0);
    };

    it("Texas Hold'em to a showdown the best hand wins", async () => {
      const fixture = await preflop({ deck: riggedDeck(['As Ah', 'Kd Kc', '7s 2d'], 'Ks 9h 4c 3d Jc') });
      await play(fixture, act('alice', 'CALL'), act('bob', 'RAISE', 20), act('carol', 'CALL'), act('alice', 'FOLD'));
      await play(fixture, act('bob', 'CHECK'), act('carol', 'BET', 50), act('bob', 'CALL'));
      await play(fixture, act('bob', 'CHECK'), act('carol', 'CHECK'));
      await play(fixture, act('bob', 'CHECK'));
      const closed = await play(fixture, act('carol', 'CHECK'));
      const [, , bob, carol] = closed.events as CardsRevealed[];
      expect([bob.ranking, carol.ranking]).toEqual(['PAIR', 'THREE_OF_A_KIND']);
      const [awarded, complete] = ending(closed);
      expect(awarded).toEqual(new PotAwarded([{ playerId: 'carol', amount: 170 }]));
      expect(complete.stackChanges).toEqual({ bob: -80, carol: 90, alice: -10 });
      expectConserved(complete, 3000);
    });

    it("Texas Hold'em split pot: identical hands share, the odd chip goes left of the dealer", async () => {
      const fixture = await preflop({ deck: riggedDeck(['2c 3c', '4d 5d', '6h 7h'], 'Ts Js Qs Ks As') });
      await play(fixture, act('alice', 'CALL'), act('bob', 'FOLD'), act('carol', 'CHECK'));
      let closed!: FixtureOutcome<HandState>;
      for (let round = 0; round < 3; round++) closed = await play(fixture, act('carol', 'CHECK'), act('alice', 'CHECK'));
      const [awarded, complete] = ending(closed);
      expect(awarded).toEqual(
        new PotAwarded([
          { playerId: 'carol', amount: 13 },
          { playerId: 'alice', amount: 12 },
        ]),
      );
      expectConserved(complete, 3000);
    });

    it('Omaha to a showdown: exactly two hole cards play', async () => {
      const fixture = newHand();
      const deck = riggedDeck(['Qh Qd 8c 8d', 'As Kd 2c 3d'], 'Qs Js Ts 9s 4h');
      await play(fixture, deal({ variant: 'OMAHA', players: TWO, deck }), blind('alice', 'small', 5), blind('bob', 'big', 10));
      await play(fixture, act('alice', 'CALL'), act('bob', 'CHECK'));
      await play(fixture, act('bob', 'CHECK'), act('alice', 'CHECK'), act('bob', 'CHECK'), act('alice', 'CHECK'), act('bob', 'CHECK'));
      const closed = await play(fixture, act('alice', 'CHECK'));
      // Four spades on the board and the ace of spades: a flush in Hold'em, a straight in Omaha.
      expect(closed.events.slice(2, 4)).toEqual([
        new CardsRevealed('bob', ['Qh', 'Qd', '8c', '8d'], 'STRAIGHT', 'alice'),
        new CardsRevealed('alice', ['As', 'Kd', '2c', '3d'], 'STRAIGHT', null, true),
      ]);
      const [awarded, complete] = ending(closed);
      expect(awarded).toEqual(new PotAwarded([{ playerId: 'alice', amount: 20 }]));
      expectConserved(complete, 2000);
    });

    it('Five Card Draw to a showdown: bet, draw, bet, show', async () => {
      const deck = riggedDeck(['Ah Ad 7c 4s 2h', 'Kc Kd Ks 9h 3c', '5c 6d 8h Td Jc'], 'Ac 9s 2c 3d');
      const fixture = await preflop({ variant: 'FIVE_CARD_DRAW', deck });
      await play(fixture, act('alice', 'CALL'), act('bob', 'CALL'), act('carol', 'CHECK'));
      await play(fixture, draw('bob', 2, 3, 4), draw('carol'), draw('alice', 0));
      await play(fixture, act('bob', 'BET', 20), act('carol', 'RAISE', 20), act('alice', 'FOLD'));
      const closed = await play(fixture, act('bob', 'CALL'));
      // carol raised last: she shows first; bob's aces beat her kings, so they are shown in turn.
      expect(closed.events[1]).toEqual(new BettingRoundComplete('DRAW', 'carol', true));
      expect(closed.events.slice(2, 4)).toEqual([
        new CardsRevealed('carol', ['Kc', 'Kd', 'Ks', '9h', '3c'], 'THREE_OF_A_KIND', 'bob'),
        new CardsRevealed('bob', ['Ah', 'Ad', 'Ac', '9s', '2c'], 'THREE_OF_A_KIND', null, true),
      ]);
      const [awarded, complete] = ending(closed);
      expect(awarded).toEqual(new PotAwarded([{ playerId: 'bob', amount: 110 }]));
      expectConserved(complete, 3000);
    });

    it.each([...VARIANTS])('%s: the last player standing wins without a showdown of cards', async (variant) => {
      const fixture = await preflop({ variant, seed: 'fold' });
      await play(fixture, act('alice', 'RAISE', 30), act('bob', 'FOLD'));
      const folded = await play(fixture, act('carol', 'FOLD'));
      expect(folded.events.slice(1)).toEqual([
        new BettingRoundComplete('PREFLOP', null, false, true),
        new PotAwarded([{ playerId: 'alice', amount: 55 }]),
        new HandComplete('table-1', HAND, { bob: 995, carol: 990, alice: 1015 }, { bob: -5, carol: -10, alice: 15 }),
      ]);
    });

    it("all-in preflop: the board runs out street by street with no betting, then the showdown, in the call's own append", async () => {
      const fixture = newHand();
      const deck = riggedDeck(['Kc Kd', 'As Ah'], '2c 7d 9h Js 4d');
      await play(fixture, deal({ players: [TWO[0], { ...TWO[1], stack: 300 }], deck }), blind('alice', 'small', 5), blind('bob', 'big', 10));
      expect((await play(fixture, act('alice', 'ALL_IN'))).events).toEqual([new ActionTaken('alice', 'ALL_IN', 295, 0, 310, 290, 'bob')]);
      const river = await play(fixture, act('bob', 'CALL'));
      // Nobody can bet after the call: each street's round closes as it is dealt. bob, first left of
      // the dealer, shows his kings first; alice's aces beat them, so they are shown in turn.
      expect(river.events.slice(0, 10)).toEqual([
        new ActionTaken('bob', 'CALL', 290, 700, 600, 0, null),
        new BettingRoundComplete('PREFLOP', null, false, false, true),
        new CommunityCardsDealt(['2c', '7d', '9h'], 'FLOP', ['2c', '7d', '9h'], null),
        new BettingRoundComplete('FLOP', null, false, false, true),
        new CommunityCardsDealt(['Js'], 'TURN', ['2c', '7d', '9h', 'Js'], null),
        new BettingRoundComplete('TURN', null, false, false, true),
        new CommunityCardsDealt(['4d'], 'RIVER', ['2c', '7d', '9h', 'Js', '4d'], null),
        new BettingRoundComplete('RIVER', 'bob', true),
        new CardsRevealed('bob', ['Kc', 'Kd'], 'PAIR', 'alice'),
        new CardsRevealed('alice', ['As', 'Ah'], 'PAIR', null, true),
      ]);
      expect(ending(river)[1]).toEqual(new HandComplete('table-1', HAND, { bob: 700, alice: 600 }, { bob: -300, alice: 300 }));
    });
  });
});
