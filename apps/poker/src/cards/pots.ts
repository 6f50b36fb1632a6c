import { compareHands, type EvaluatedHand } from './evaluator.js';
import { clockwiseAfter, type Positioned } from './positions.js';

export interface Award {
  playerId: string;
  amount: number;
}

export interface PotShare extends Positioned {
  playerId: string;
}

/** Identical hands split evenly; the odd chips go one each to the winners first left of the dealer. */
export function splitPot(amount: number, winners: readonly PotShare[], dealerPosition: number): Award[] {
  const share = Math.floor(amount / winners.length);
  const odd = amount - share * winners.length;
  return clockwiseAfter(winners, dealerPosition).map((winner, i) => ({ playerId: winner.playerId, amount: share + (i < odd ? 1 : 0) }));
}

export interface Contender extends PotShare {
  totalInvested: number;
  folded: boolean;
  /** The shown hand; a player in the hand without one (mucked) cannot win a contested pot. */
  hand?: EvaluatedHand;
}

export interface Pot {
  amount: number;
  /** Players still in the hand who put in at least this pot's level. */
  eligible: string[];
}

/**
 * Main pot and side pots, one per all-in level: each holds every player's chips up to that
 * level, and only those still in the hand who reached it can win it. A level nobody still in
 * the hand reached (a folded player's extra) joins the pot below it.
 */
export function sidePots(contenders: readonly Contender[]): Pot[] {
  const levels = [...new Set(contenders.filter((c) => !c.folded).map((c) => c.totalInvested))].sort((a, b) => a - b);
  const pots: Pot[] = [];
  let below = 0;
  for (const level of levels) {
    const amount = contenders.reduce((sum, c) => sum + Math.max(0, Math.min(c.totalInvested, level) - below), 0);
    const eligible = contenders.filter((c) => !c.folded && c.totalInvested >= level).map((c) => c.playerId);
    pots.push({ amount, eligible });
    below = level;
  }
  const beyond = contenders.reduce((sum, c) => sum + Math.max(0, c.totalInvested - below), 0);
  if (beyond > 0 && pots.length > 0) pots[pots.length - 1].amount += beyond;
  return pots.filter((pot) => pot.amount > 0);
}

/** Who wins what at the end of a hand: every pot to its best eligible hand(s), split as above. */
export function awardPots(contenders: readonly Contender[], dealerPosition: number): Award[] {
  const totals = new Map<string, number>();
  for (const pot of sidePots(contenders)) {
    const eligible = contenders.filter((c) => pot.eligible.includes(c.playerId));
    const winners = eligible.length === 1 ? eligible : strongest(eligible.filter(hasHand));
    if (winners.length === 0) throw new Error(`no shown hand can win the pot of ${pot.amount} contested by ${pot.eligible.join(', ')}`);
    for (const { playerId, amount } of splitPot(pot.amount, winners, dealerPosition)) totals.set(playerId, (totals.get(playerId) ?? 0) + amount);
  }
  return [...totals].map(([playerId, amount]) => ({ playerId, amount }));
}

/** The contenders holding the best hand: several when they tie. */
export function strongest<T extends { hand: EvaluatedHand }>(contenders: readonly T[]): T[] {
  if (contenders.length === 0) return [];
  const top = contenders.reduce((a, b) => (compareHands(b.hand, a.hand) > 0 ? b : a));
  return contenders.filter((c) => compareHands(c.hand, top.hand) === 0);
}

function hasHand(contender: Contender): contender is Contender & { hand: EvaluatedHand } {
  return contender.hand !== undefined;
}
