import type { Card } from '../cards/index.js';
import { dealtPlayer, type HandPlayerState, type HandState, initialHandState } from '../hand/index.js';
import { botAction, botDiscards } from './bot-policy.js';

const me = (holeCards: string[], fields: Partial<HandPlayerState> = {}): HandPlayerState => ({
  ...dealtPlayer('bot', 0, 500, holeCards as Card[]),
  ...fields,
});

const hand = (player: HandPlayerState, fields: Partial<HandState> = {}): HandState => ({
  ...initialHandState(),
  players: [player],
  actionOn: 'bot',
  status: 'betting',
  bigBlind: 10,
  minRaise: 10,
  ...fields,
});

describe('the bot policy', () => {
  it('bets the minimum with a pair when nobody has bet, and checks without one', () => {
    expect(botAction(hand(me(['As', 'Ad'])), 'bot')).toEqual({ action: 'BET', amount: 10 });
    expect(botAction(hand(me(['As', '7d'])), 'bot')).toEqual({ action: 'CHECK' });
    // Preflop the big blind is a bet already: a pair raises it.
    expect(botAction(hand(me(['9s', '9d'], { betThisRound: 10 }), { currentBet: 10 }), 'bot')).toEqual({ action: 'RAISE', amount: 10 });
  });

  it('calls a bet with a pair or for at most a big blind, and folds otherwise', () => {
    expect(botAction(hand(me(['As', '7d']), { currentBet: 40, communityCards: ['7s', '2c', '9h'] }), 'bot')).toEqual({ action: 'CALL' });
    expect(botAction(hand(me(['As', '7d']), { currentBet: 10 }), 'bot')).toEqual({ action: 'CALL' });
    expect(botAction(hand(me(['As', '8d']), { currentBet: 40, communityCards: ['7s', '2c', '9h'] }), 'bot')).toEqual({ action: 'FOLD' });
  });

  it('raises once with trips or better, and goes all-in when the raise is the whole stack', () => {
    const trips = me(['7d', '7h']);
    expect(botAction(hand(trips, { currentBet: 40, communityCards: ['7s', '2c', '9h'] }), 'bot')).toEqual({ action: 'RAISE', amount: 10 });
    expect(botAction(hand({ ...trips, betThisRound: 40 }, { currentBet: 80, communityCards: ['7s', '2c', '9h'] }), 'bot')).toEqual({ action: 'CALL' });
    expect(botAction(hand({ ...trips, stack: 45 }, { currentBet: 40, communityCards: ['7s', '2c', '9h'] }), 'bot')).toEqual({ action: 'ALL_IN' });
  });

  it('keeps pairs and better in the draw, else the two highest cards', () => {
    expect(botDiscards(['Kd', '7s', 'Kh', '2c', '9d'])).toEqual([1, 3, 4]);
    expect(botDiscards(['3d', 'As', '8h', 'Qc', '9d'])).toEqual([0, 2, 4]);
    expect(botDiscards(['3d', '3s', '8h', '8c', '8d'])).toEqual([]);
  });
});
