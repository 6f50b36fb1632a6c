import { bestHandFor, type Card, RANKINGS, rankValue } from '../cards/index.js';
import type { BettingAction, HandState } from '../hand/index.js';

export interface BotMove {
  action: BettingAction;
  amount?: number;
}

const PAIR = RANKINGS.indexOf('PAIR');
const THREE_OF_A_KIND = RANKINGS.indexOf('THREE_OF_A_KIND');

/**
 * A simple, deterministic bot: the same cards and table always give the same move, so seeded
 * games replay exactly. It bets the minimum with a pair or better, raises once with trips or
 * better, calls a pair (or anything for at most a big blind), and otherwise checks or folds.
 */
export function botAction(hand: HandState, playerId: string): BotMove {
  const me = hand.players.find((player) => player.playerId === playerId)!;
  const toCall = hand.currentBet - me.betThisRound;
  const strength = RANKINGS.indexOf(bestHandFor(hand.variant, me.holeCards, hand.communityCards).ranking);
  const open = (): BotMove => {
    if (toCall + hand.minRaise >= me.stack) return { action: 'ALL_IN' };
    return { action: hand.currentBet === 0 ? 'BET' : 'RAISE', amount: hand.minRaise };
  };
  if (toCall === 0) return strength >= PAIR ? open() : { action: 'CHECK' };
  if (strength >= THREE_OF_A_KIND && me.betThisRound <= hand.bigBlind) return open();
  if (strength >= PAIR || toCall <= hand.bigBlind) return { action: 'CALL' };
  return { action: 'FOLD' };
}

/** Five Card Draw: keep pairs and better (or the two highest cards), exchange the rest. */
export function botDiscards(holeCards: readonly Card[]): number[] {
  const count = (card: Card) => holeCards.filter((other) => other[0] === card[0]).length;
  const grouped = holeCards.filter((card) => count(card) >= 2);
  const keep = grouped.length > 0 ? grouped : [...holeCards].sort((a, b) => rankValue(b) - rankValue(a)).slice(0, 2);
  return holeCards.flatMap((card, index) => (keep.includes(card) ? [] : [index]));
}
