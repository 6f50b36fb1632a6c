import { ProcessManagerFixture } from '@nest-es/core/testing';
import type { Card, Variant } from '../cards/index.js';
import {
  ActionTaken,
  BettingRoundComplete,
  BlindPosted,
  CardsRevealed,
  CommunityCardsDealt,
  DrawCompleted,
  dealtPlayer,
  HandComplete,
  type HandPlayerState,
  type HandState,
  initialHandState,
  PlayerAction,
  RequestDraw,
  RevealCards,
} from '../hand/index.js';
import { initialPlayerState, type PlayerType } from '../player/index.js';
import { HandStarted } from '../table/index.js';
import { BotTurnsEnded, BotTurnsStarted } from './bot-turns.events.js';
import { type BotTimer, BotTurnsProcess, type BotTurnsState } from './bot-turns.process-manager.js';

const HAND = 't-hand-1';
const PLAYERS = [
  { playerId: 'sb', position: 1, stack: 500 },
  { playerId: 'bb', position: 2, stack: 500 },
  { playerId: 'btn', position: 0, stack: 500 },
];
/** sb and btn are bots, bb is a person. */
const TYPES: Record<string, PlayerType> = { sb: 'AI', bb: 'HUMAN', btn: 'AI' };
const CARDS: Record<string, Card[]> = { sb: ['As', 'Ad'], bb: ['7c', '2d'], btn: ['9s', '4h'] };
const DRAW_CARDS: Record<string, Card[]> = { sb: ['Kd', '7s', 'Kh', '2c', '9d'], bb: ['3d', '3s', '8h', '8c', '8d'], btn: ['3c', 'As', '8s', 'Qc', '9h'] };

const started = (variant: Variant = 'TEXAS_HOLDEM', botDelayMs = 250) => new HandStarted(HAND, 1, variant, 0, 1, 2, 5, 10, PLAYERS, 't', 5000, null, botDelayMs);
const ofHand = (sequence: number) => ({ aggregateType: 'hand', aggregateId: HAND, sequence });

/** The hand as the event that passed the turn left it: preflop, big blind 10 posted. */
function hand(fields: Partial<HandState> = {}, players: Partial<Record<string, Partial<HandPlayerState>>> = {}): HandState {
  const variant = fields.variant ?? 'TEXAS_HOLDEM';
  return {
    ...initialHandState(),
    variant,
    dealerPosition: 0,
    smallBlind: 5,
    bigBlind: 10,
    phase: 'PREFLOP',
    status: 'betting',
    currentBet: 10,
    minRaise: 10,
    pot: 15,
    players: PLAYERS.map(({ playerId, position, stack }) => ({
      ...dealtPlayer(playerId, position, stack, (variant === 'FIVE_CARD_DRAW' ? DRAW_CARDS : CARDS)[playerId]),
      ...players[playerId],
    })),
    ...fields,
  };
}

/** A fixture keyed by the hand id that knows the players (bots as in TYPES, unless `types` says otherwise). */
function withPlayers(types: Record<string, PlayerType> = TYPES) {
  const fixture = ProcessManagerFixture.for<BotTurnsState>(BotTurnsProcess, new BotTurnsProcess(), HAND);
  for (const [playerId, playerType] of Object.entries(types)) fixture.givenAggregate('player', playerId, { ...initialPlayerState(), registered: true, playerType });
  return fixture;
}

/** The same, past HandStarted. */
async function flow(variant: Variant = 'TEXAS_HOLDEM') {
  const fixture = withPlayers();
  const outcome = await fixture.when(started(variant));
  return { fixture, outcome };
}

const timer = (handSequence: number, moves: BotTimer['moves']) => ({ cancelled: ['bot'], scheduled: [{ name: 'bot', afterMs: 250, payload: { handId: HAND, handSequence, moves } }] });
const NO_TIMER = { cancelled: ['bot'], scheduled: [] };

describe('the bot-turns process manager', () => {
  it("starts on HandStarted with the table's pace, and only once", async () => {
    const { fixture, outcome } = await flow();
    expect(outcome.events).toEqual([new BotTurnsStarted(HAND, 'TEXAS_HOLDEM', 250, ['sb', 'btn'])]);
    expect((await fixture.when(started('OMAHA'))).events).toEqual([]);
    expect(fixture.currentState).toMatchObject({ handId: HAND, botDelayMs: 250 });
  });

  it('takes the default pace from a HandStarted stored before the pace existed', async () => {
    const old = Object.assign(started(), { botDelayMs: undefined });
    const outcome = await withPlayers().when(old);
    expect(outcome.events).toEqual([new BotTurnsStarted(HAND, 'TEXAS_HOLDEM', 800, ['sb', 'btn'])]);
  });

  it('starts no instance for a hand of people: its turns reach none, so nothing is decided, read or recorded', async () => {
    const fixture = withPlayers({ sb: 'HUMAN', bb: 'HUMAN', btn: 'HUMAN' });
    expect((await fixture.when(started())).events).toEqual([]);
    expect(fixture.currentState).toMatchObject({ handId: null });
    // No hand is given to this fixture: a turn step that read it would fail.
    expect(await fixture.when(new BlindPosted('bb', 'big', 10, 490, 15, 'btn', 10), ofHand(3))).toMatchObject({ ran: false, cancelled: [], scheduled: [] });
    expect(await fixture.when(new HandComplete('t', HAND, {}, {}), ofHand(9))).toMatchObject({ ran: false, events: [], cancelled: [] });
  });

  it('follows no turn of a hand of people started before such hands started no instance (its bots noted as none)', async () => {
    const fixture = withPlayers({ sb: 'HUMAN', bb: 'HUMAN', btn: 'HUMAN' }).given(new BotTurnsStarted(HAND, 'TEXAS_HOLDEM', 250, []));
    expect(await fixture.when(new BlindPosted('bb', 'big', 10, 490, 15, 'btn', 10), ofHand(3))).toMatchObject({ cancelled: [], scheduled: [] });
    expect(await fixture.when(new HandComplete('t', HAND, {}, {}), ofHand(9))).toMatchObject({ events: [], cancelled: [] });
  });

  it('asks the players at each turn of a hand whose start did not note its bots (stored before they were)', async () => {
    const fixture = withPlayers().given(new BotTurnsStarted(HAND, 'TEXAS_HOLDEM', 250));
    fixture.givenAggregate('hand', HAND, hand({ actionOn: 'btn' }, { bb: { betThisRound: 10 }, sb: { betThisRound: 5 } }));
    const turn = await fixture.when(new BlindPosted('bb', 'big', 10, 490, 15, 'btn', 10), ofHand(3));
    expect(turn).toMatchObject(timer(3, [{ playerId: 'btn', command: 'PlayerAction', action: 'CALL' }]));
  });

  it("decides a bot's move on the hand as of the event that passed it the turn, and sends it when the timer fires", async () => {
    const { fixture } = await flow();
    fixture.givenAggregate('hand', HAND, hand({ actionOn: 'btn' }, { bb: { betThisRound: 10 }, sb: { betThisRound: 5 } }));
    // btn holds nothing and faces one big blind: it calls. Its bet expects the hand at sequence 3.
    const turn = await fixture.when(new BlindPosted('bb', 'big', 10, 490, 15, 'btn', 10), ofHand(3));
    expect(turn).toMatchObject(timer(3, [{ playerId: 'btn', command: 'PlayerAction', action: 'CALL' }]));
    const [fired] = await fixture.advance(250);
    expect(fired.timer).toBe('bot');
    expect(fired.commands).toEqual([Object.assign(new PlayerAction(), { handId: HAND, playerId: 'btn', action: 'CALL' })]);
    expect(fired.emissions[0].expectedSequence).toBe(3);
  });

  it("starts no timer on a person's turn, and stops the previous one", async () => {
    const { fixture } = await flow();
    fixture.givenAggregate('hand', HAND, hand({ actionOn: 'btn' }));
    await fixture.when(new BlindPosted('bb', 'big', 10, 490, 15, 'btn', 10), ofHand(3));
    fixture.givenAggregate('hand', HAND, hand({ actionOn: 'bb', currentBet: 0, phase: 'FLOP', communityCards: ['Ks', 'Qd', '3c'] }));
    expect(await fixture.when(new CommunityCardsDealt(['Ks', 'Qd', '3c'], 'FLOP', ['Ks', 'Qd', '3c'], 'bb'), ofHand(8))).toMatchObject(NO_TIMER);
    expect(fixture.pendingTimers).toEqual([]);
  });

  it('stops the timer when nobody is to act, and in Hold\'em when a round closes', async () => {
    const { fixture } = await flow();
    expect(await fixture.when(new BlindPosted('sb', 'small', 5, 495, 5, null, 0), ofHand(2))).toMatchObject(NO_TIMER);
    expect(await fixture.when(new ActionTaken('bb', 'CHECK', 0, 490, 30, 0, null), ofHand(6))).toMatchObject(NO_TIMER);
    expect(await fixture.when(new BettingRoundComplete('PREFLOP'), ofHand(7))).toMatchObject(NO_TIMER);
  });

  it('replaces the timer each time the turn passes to a bot', async () => {
    const { fixture } = await flow();
    fixture.givenAggregate('hand', HAND, hand({ actionOn: 'btn' }));
    await fixture.when(new BlindPosted('bb', 'big', 10, 490, 15, 'btn', 10), ofHand(3));
    // The route made btn's move first: the turn passes to sb, whose pair of aces calls the big blind.
    fixture.givenAggregate('hand', HAND, hand({ actionOn: 'sb', pot: 25 }, { btn: { betThisRound: 10, hasActed: true }, sb: { betThisRound: 5 } }));
    const next = await fixture.when(new ActionTaken('btn', 'CALL', 10, 490, 25, 5, 'sb'), ofHand(4));
    expect(next).toMatchObject(timer(4, [{ playerId: 'sb', command: 'PlayerAction', action: 'CALL' }]));
    expect(fixture.pendingTimers).toHaveLength(1);
  });

  it('in Five Card Draw has each bot draw when its turn to draw comes, in turn from the left of the dealer', async () => {
    const { fixture } = await flow('FIVE_CARD_DRAW');
    const drawing = (drawn: string[]) => hand({ variant: 'FIVE_CARD_DRAW', phase: 'DRAW', status: 'drawing', actionOn: null, currentBet: 0 }, Object.fromEntries(drawn.map((id) => [id, { hasDrawn: true }])));
    fixture.givenAggregate('hand', HAND, drawing([]));
    // sb, left of the dealer, draws first; then bb, a person; then the dealer btn.
    expect(await fixture.when(new BettingRoundComplete('PREFLOP'), ofHand(7))).toMatchObject(timer(7, [{ playerId: 'sb', command: 'RequestDraw', discardIndices: [1, 3, 4] }]));
    fixture.givenAggregate('hand', HAND, drawing(['sb']));
    expect(await fixture.when(new DrawCompleted('sb', ['7s', '2c', '9d'], ['4c', '5c', '6c'], null), ofHand(8))).toMatchObject(NO_TIMER);
    fixture.givenAggregate('hand', HAND, drawing(['sb', 'bb']));
    const last = await fixture.when(new DrawCompleted('bb', [], [], null), ofHand(9));
    expect(last).toMatchObject(timer(9, [{ playerId: 'btn', command: 'RequestDraw', discardIndices: [0, 2, 4] }]));
    const [fired] = await fixture.advance(250);
    expect(fired.commands).toEqual([Object.assign(new RequestDraw(), { handId: HAND, playerId: 'btn', discardIndices: [0, 2, 4] })]);
  });

  it('at the showdown has a bot whose turn it is to show muck its losing hand', async () => {
    const { fixture } = await flow();
    const board: Card[] = ['Ks', 'Qd', '3c', '8h', 'Jd'];
    fixture.givenAggregate('hand', HAND, hand({ phase: 'SHOWDOWN', status: 'showdown', actionOn: 'btn', communityCards: board }, { bb: { folded: true, totalInvested: 10 }, sb: { shown: 'revealed', totalInvested: 20 }, btn: { totalInvested: 20 } }));
    const turn = await fixture.when(new CardsRevealed('sb', ['As', 'Ad'], 'PAIR', 'btn'), ofHand(12));
    expect(turn).toMatchObject(timer(12, [{ playerId: 'btn', command: 'RevealCards', muck: true }]));
    const [fired] = await fixture.advance(250);
    expect(fired.emissions).toEqual([expect.objectContaining({ command: Object.assign(new RevealCards(), { handId: HAND, playerId: 'btn', muck: true }), expectedSequence: 12 })]);
  });

  it('ends with the hand; a timer due as it ended sends nothing', async () => {
    const { fixture } = await flow();
    fixture.givenAggregate('hand', HAND, hand({ actionOn: 'btn' }));
    const scheduled = await fixture.when(new BlindPosted('bb', 'big', 10, 490, 15, 'btn', 10), ofHand(3));
    const payload = scheduled.scheduled[0].payload;
    const ended = await fixture.when(new HandComplete('t', HAND, {}, {}), ofHand(20));
    expect(ended).toMatchObject({ events: [new BotTurnsEnded()], cancelled: ['bot'] });
    expect(fixture.pendingTimers).toEqual([]);
    expect(await fixture.when(new ActionTaken('btn', 'CALL', 10, 490, 25, 5, 'sb'), ofHand(21))).toMatchObject({ scheduled: [] });
    expect(await fixture.whenTimer('bot', payload)).toMatchObject({ commands: [] });
  });

  describe('determinism of the bot timer', () => {
    const payload: BotTimer = { handId: HAND, handSequence: 4, moves: [{ playerId: 'sb', command: 'PlayerAction', action: 'RAISE', amount: 10 }] };
    const sent = [expect.objectContaining({ command: Object.assign(new PlayerAction(), { handId: HAND, playerId: 'sb', action: 'RAISE', amount: 10 }), expectedSequence: 4 })];

    it('sends what its payload says, whatever the hand and the players look like when it fires', async () => {
      const live = [
        hand({ actionOn: 'sb' }),
        // The hand moved on: another street, another player to act, other cards.
        hand({ actionOn: 'btn', phase: 'FLOP', currentBet: 0, communityCards: ['2c', '7d', 'Jh'] }, { sb: { holeCards: ['3c', '8d'] } }),
        hand({ status: 'showdown', phase: 'SHOWDOWN', actionOn: null }),
      ];
      for (const state of live) {
        const { fixture } = await flow();
        fixture.givenAggregate('hand', HAND, state).givenAggregate('player', 'sb', { ...initialPlayerState(), playerType: 'HUMAN' });
        const fired = await fixture.whenTimer('bot', payload);
        expect(fired.emissions).toEqual(sent);
        expect(fired).toMatchObject({ events: [], scheduled: [], cancelled: [] });
      }
    });

    it('sends the same when it fires again (a redelivery) and when it fires late', async () => {
      const { fixture } = await flow();
      const first = await fixture.whenTimer('bot', payload);
      await fixture.advance(60_000);
      const again = await fixture.whenTimer('bot', structuredClone(payload));
      expect(again.emissions).toEqual(first.emissions);
    });

    it('reads no aggregate: the decision was made in the event step', async () => {
      // No aggregate is given to this fixture: a timer step that looked one up would fail.
      const fixture = ProcessManagerFixture.for<BotTurnsState>(BotTurnsProcess, new BotTurnsProcess(), HAND).given(new BotTurnsStarted(HAND, 'TEXAS_HOLDEM', 250));
      expect((await fixture.whenTimer('bot', payload)).emissions).toEqual(sent);
    });

    it('schedules the same payload when the same event is delivered again', async () => {
      const decide = async () => {
        const { fixture } = await flow();
        fixture.givenAggregate('hand', HAND, hand({ actionOn: 'btn' }));
        return (await fixture.when(new BlindPosted('bb', 'big', 10, 490, 15, 'btn', 10), ofHand(3))).scheduled;
      };
      expect(await decide()).toEqual(await decide());
    });
  });
});
