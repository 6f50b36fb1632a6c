import type { Card } from '../cards/index.js';
import { dealtPlayer, type HandPlayerState, type HandState, initialHandState, PlayerAction, RequestDraw } from '../hand/index.js';
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

const drawing = (): HandState => ({
  ...initialHandState(),
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

  it('in the draw, has every bot still in and still to draw draw', () => {
    expect(playersToMove(drawing())).toEqual(['ann', 'bot-1']);
    expect(planBotMoves(drawing(), 9, BOTS).moves).toEqual([{ playerId: 'bot-1', command: 'RequestDraw', discardIndices: [1, 3, 4] }]);
    expect(planBotMoves(drawing(), 9, new Set(['ann', 'bot-1'])).moves.map((move) => move.playerId)).toEqual(['ann', 'bot-1']);
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
  });
});
