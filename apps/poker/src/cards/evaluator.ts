import { rankValue, suitOf, type Card } from './card.js';
import { eachCombination } from './combinations.js';
import type { Variant } from './variant.js';

export const RANKINGS = [
  'HIGH_CARD',
  'PAIR',
  'TWO_PAIR',
  'THREE_OF_A_KIND',
  'STRAIGHT',
  'FLUSH',
  'FULL_HOUSE',
  'FOUR_OF_A_KIND',
  'STRAIGHT_FLUSH',
  'ROYAL_FLUSH',
] as const;
export type Ranking = (typeof RANKINGS)[number];

export interface EvaluatedHand {
  ranking: Ranking;
  /** The cards that make the hand, most significant first (a wheel ends with its ace). */
  cards: Card[];
  /** Higher is better; equal scores split the pot. */
  score: number;
}

const ACE = 14;
/** A score is six base-15 digits: the ranking, then up to five tie-break ranks. */
const DIGIT = 15;
const RANKING_UNIT = DIGIT ** 5;
/** The distinct ranks of A-2-3-4-5, high first, as tie-break digits. */
const WHEEL = [ACE, 5, 4, 3, 2].reduce((total, rank) => total * DIGIT + rank, 0);
const WHEEL_HIGH = 5;

/**
 * Ranks up to five cards. Fewer than five happens at a showdown reached before the board is
 * complete (everyone else folded): such hands can only be groups and high cards.
 */
export function evaluateFive(cards: readonly Card[]): EvaluatedHand {
  if (cards.length > 5) throw new RangeError(`a hand is five cards at most, got ${cards.length}: bestHand picks the best five`);
  const ranks = cards.map(rankValue);
  const score = scoreOf(ranks, cards.map(suitOf), [0, 1, 2, 3, 4], cards.length);
  const ranking = RANKINGS[Math.floor(score / RANKING_UNIT)];
  // The cards as the hand reads: the biggest group first, then the higher rank (a stable sort keeps each group's order).
  const count = (rank: number) => ranks.filter((other) => other === rank).length;
  const ordered = [...cards].sort((a, b) => count(rankValue(b)) - count(rankValue(a)) || rankValue(b) - rankValue(a));
  const wheel = (ranking === 'STRAIGHT' || ranking === 'STRAIGHT_FLUSH') && ranks.includes(ACE) && ranks.includes(2);
  return { ranking, cards: wheel ? [...ordered.slice(1), ordered[0]] : ordered, score };
}

/** The best five of any number of cards (all of them when there are five or fewer). */
export function bestHand(cards: readonly Card[]): EvaluatedHand {
  return best(cards, (visit) => eachCombination(0, cards.length, Math.min(5, cards.length), visit));
}

/** Omaha: exactly two hole cards and three community cards (as many as there are, if fewer). */
export function bestOmahaHand(holeCards: readonly Card[], communityCards: readonly Card[]): EvaluatedHand {
  const hole = holeCards.length;
  const board = Math.min(3, communityCards.length);
  return best([...holeCards, ...communityCards], (visit) =>
    eachCombination(0, hole, 2, (picks) => eachCombination(hole, hole + communityCards.length, board, (boardPicks) => visit([...picks, ...boardPicks]))),
  );
}

export function bestHandFor(variant: Variant, holeCards: readonly Card[], communityCards: readonly Card[]): EvaluatedHand {
  return variant === 'OMAHA' ? bestOmahaHand(holeCards, communityCards) : bestHand([...holeCards, ...communityCards]);
}

/** > 0 when `a` wins, < 0 when `b` wins, 0 for a split. */
export function compareHands(a: EvaluatedHand, b: EvaluatedHand): number {
  return a.score - b.score;
}

/**
 * The hand of the highest score among those `choose` offers (as indices into `cards`), the first
 * of equals. Hands are scored without being built; only the best one is.
 */
function best(cards: readonly Card[], choose: (visit: (picks: readonly number[]) => void) => void): EvaluatedHand {
  const ranks = cards.map(rankValue);
  const suits = cards.map(suitOf);
  let top = -1;
  let topPicks: readonly number[] = [];
  choose((picks) => {
    const score = scoreOf(ranks, suits, picks, picks.length);
    if (score > top) [top, topPicks] = [score, [...picks]];
  });
  return evaluateFive(topPicks.map((index) => cards[index]));
}

/** How many cards of each rank the hand being scored holds (scoring is synchronous: one hand at a time). */
const counts = new Uint8Array(ACE + 1);

/**
 * The score of the cards at `picks` (the first `size` of them, five at most): the ranking, then the
 * tie-break ranks, the biggest group first, then the higher rank (pair rank, then kickers).
 */
function scoreOf(ranks: readonly number[], suits: readonly string[], picks: readonly number[], size: number): number {
  let flush = size === 5;
  for (let i = 0; i < size; i++) {
    counts[ranks[picks[i]]]++;
    if (suits[picks[i]] !== suits[picks[0]]) flush = false;
  }
  const shape = { groups: 0, first: 0, second: 0, high: 0, low: 0 };
  let tiebreak = 0;
  for (let group = 4; group >= 1; group--) {
    for (let rank = ACE; rank >= 2; rank--) {
      if (counts[rank] !== group) continue;
      tiebreak = tiebreak * DIGIT + rank;
      if (shape.groups === 0) [shape.first, shape.high] = [group, rank];
      if (shape.groups === 1) shape.second = group;
      shape.low = rank;
      shape.groups++;
    }
  }
  for (let i = 0; i < size; i++) counts[ranks[picks[i]]] = 0;
  const straightHigh = size === 5 && shape.groups === 5 ? straightHighCard(shape.high, shape.low, tiebreak) : 0;
  const ranking = RANKINGS.indexOf(classify(shape, flush, straightHigh));
  return ranking * RANKING_UNIT + (straightHigh ? straightHigh * DIGIT ** 4 : tiebreak * DIGIT ** (5 - shape.groups));
}

/** Five distinct ranks: the straight's high card (5 for the wheel A-2-3-4-5), else 0. */
function straightHighCard(high: number, low: number, tiebreak: number): number {
  if (high - low === 4) return high;
  return tiebreak === WHEEL ? WHEEL_HIGH : 0;
}

/** `first` and `second` are the sizes of the two biggest groups of equal rank. */
function classify(shape: { groups: number; first: number; second: number }, flush: boolean, straightHigh: number): Ranking {
  const { groups, first, second } = shape;
  if (straightHigh && flush) return straightHigh === ACE ? 'ROYAL_FLUSH' : 'STRAIGHT_FLUSH';
  if (groups === 2 && first === 4) return 'FOUR_OF_A_KIND';
  if (groups === 2 && first === 3 && second === 2) return 'FULL_HOUSE';
  if (flush) return 'FLUSH';
  if (straightHigh) return 'STRAIGHT';
  if (first === 3) return 'THREE_OF_A_KIND';
  if (first === 2 && second === 2) return 'TWO_PAIR';
  if (first === 2) return 'PAIR';
  return 'HIGH_CARD';
}
