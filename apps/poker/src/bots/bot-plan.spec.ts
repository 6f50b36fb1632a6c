import type { Card } from '../cards/index.js';
import { dealtPlayer, type HandPlayerState, type HandState, initialHandState, PlayerAction, RequestDraw, RevealCards } from '../hand/index.js';
import { botMoveEmission, planBotMoves, playersToMove } from './bot-plan.js';

const seat = (playerId: string, position: number, holeCards: string[], fields: Partial<HandPlayerState> = {}): HandPlayerState => ({
  ...dealtPlayer(playerId, position, 500, holeCards as Card[]),
  ...fields,
});

const betting = (actionOn: string): HandState => ({
  ...initialHandState(),
  status: 'betting',
  phase: 'FLOP',
  bigBlind: 10,
  minRaise: 10,
  currentBet: 10,
  communityCards: ['Ks', '2c', '7h'],
  actionOn,
  players: [seat('ann', 0, ['As', 'Ad'], { betThisRound: 10 }), seat('bot-1', 1, ['9s', '4h']), seat('bot-2', 2, ['Kd', 'Kh'])],
});

/** Dealer ann at seat 0: the draw goes bot-1, (bot-2 has drawn, bot-3 folded), then ann. */
const drawing = (): HandState => ({
  ...initialHandState(),
  dealerPosition: 0,
  variant: 'FIVE_CARD_DRAW',
  status: 'drawing',
  phase: 'DRAW',
  players: [
    seat('ann', 0, ['3d', '3s', '8h', '8c', '8d']),
    seat('bot-1', 1, ['Kd', '7s', 'Kh', '2c', '9d']),
    seat('bot-2', 2, ['3c', 'As', '8s', 'Qc', '9h'], { hasDrawn: true }),
    seat('bot-3', 3, ['2d', '5s', '9c', 'Jc', 'Th'], { folded: true }),
  ],
});

const BOTS = new Set(['bot-1', 'bot-2', 'bot-3']);

describe('the bots plan', () => {
  it('moves the bot whose turn it is, on the hand and sequence it is given (trips raise, nothing calls one big blind)', () => {
    expect(playersToMove(betting('bot-1'))).toEqual(['bot-1']);
    expect(planBotMoves(betting('bot-1'), 7, BOTS)).toEqual({ handSequence: 7, moves: [{ playerId: 'bot-1', command: 'PlayerAction', action: 'CALL' }] });
    expect(planBotMoves(betting('bot-2'), 7, BOTS).moves).toEqual([{ playerId: 'bot-2', command: 'PlayerAction', action: 'RAISE', amount: 10 }]);
  });

  it("moves nobody on a person's turn, between rounds or at the showdown", () => {
    expect(planBotMoves(betting('ann'), 7, BOTS).moves).toEqual([]);
    expect(planBotMoves({ ...betting('bot-1'), status: 'round_closed', actionOn: null }, 7, BOTS).moves).toEqual([]);
    expect(planBotMoves({ ...betting('bot-1'), status: 'showdown', actionOn: null }, 7, BOTS).moves).toEqual([]);
  });

  it('in the draw, has the bot whose turn it is to draw draw, and nobody else', () => {
    expect(playersToMove(drawing())).toEqual(['bot-1']);
    expect(planBotMoves(drawing(), 9, BOTS).moves).toEqual([{ playerId: 'bot-1', command: 'RequestDraw', discardIndices: [1, 3, 4] }]);
    expect(planBotMoves(drawing(), 9, new Set(['ann', 'bot-1'])).moves.map((move) => move.playerId)).toEqual(['bot-1']);
    // ann deals at seat 3: she draws first, and the bots wait for her.
    const annFirst = { ...drawing(), dealerPosition: 3 };
    expect(playersToMove(annFirst)).toEqual(['ann']);
    expect(planBotMoves(annFirst, 9, BOTS).moves).toEqual([]);
  });

  it('at the showdown, has the bot whose turn it is to show muck a losing hand, or show one that can win', () => {
    const showdown = (actionOn: string): HandState => {
      const hand = { ...betting(actionOn), status: 'showdown' as const, phase: 'SHOWDOWN' as const, communityCards: ['Ks', '2c', '7h', '3d', '8s'] };
      hand.players = hand.players.map((player) => ({ ...player, totalInvested: 10 }));
      hand.players[0].shown = 'revealed';
      return hand;
    };
    expect(playersToMove(showdown('bot-1'))).toEqual(['bot-1']);
    expect(planBotMoves(showdown('bot-1'), 12, BOTS)).toEqual({ handSequence: 12, moves: [{ playerId: 'bot-1', command: 'RevealCards', muck: true }] });
    expect(planBotMoves(showdown('bot-2'), 12, BOTS).moves).toEqual([{ playerId: 'bot-2', command: 'RevealCards', muck: false }]);
    expect(planBotMoves(showdown('ann'), 12, BOTS).moves).toEqual([]);
  });

  it('is a pure function of its inputs: the same plan each time, and the hand left as it was', () => {
    const hand = drawing();
    const before = structuredClone(hand);
    expect(planBotMoves(hand, 9, BOTS)).toEqual(planBotMoves(structuredClone(hand), 9, new Set(BOTS)));
    expect(hand).toEqual(before);
  });

  it('turns a move into its command: a bet expects the sequence it was decided on, a draw does not', () => {
    const bet = botMoveEmission('h1', 7, { playerId: 'bot-2', command: 'PlayerAction', action: 'RAISE', amount: 10 });
    expect(bet).toMatchObject({ command: Object.assign(new PlayerAction(), { handId: 'h1', playerId: 'bot-2', action: 'RAISE', amount: 10 }), expectedSequence: 7 });
    expect(bet.command).toBeInstanceOf(PlayerAction);
    const draw = botMoveEmission('h1', 9, { playerId: 'bot-1', command: 'RequestDraw', discardIndices: [1, 3, 4] });
    expect(draw.command).toEqual(Object.assign(new RequestDraw(), { handId: 'h1', playerId: 'bot-1', discardIndices: [1, 3, 4] }));
    expect(draw.expectedSequence).toBeUndefined();
    const muck = botMoveEmission('h1', 12, { playerId: 'bot-1', command: 'RevealCards', muck: true });
    expect(muck).toMatchObject({ command: Object.assign(new RevealCards(), { handId: 'h1', playerId: 'bot-1', muck: true }), expectedSequence: 12 });
    expect(muck.command).toBeInstanceOf(RevealCards);
  });
});
