import { rankValue, suitOf, type Card } from './card.js';
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

/**
 * Ranks up to five cards. Fewer than five happens at a showdown reached before the board is
 * complete (everyone else folded): such hands can only be groups and high cards.
 */
export function evaluateFive(cards: readonly Card[]): EvaluatedHand {
  // Groups of equal rank, the biggest group first, then the higher rank: that order is both
  // how the hand reads and how ties are broken (pair rank, then kickers).
  const byRank = new Map<number, Card[]>();
  for (const card of cards) byRank.set(rankValue(card), [...(byRank.get(rankValue(card)) ?? []), card]);
  const groups = [...byRank.entries()].sort(([rankA, a], [rankB, b]) => b.length - a.length || rankB - rankA);
  const shape = groups.map(([, group]) => group.length).join('');
  let ordered = groups.flatMap(([, group]) => group);
  let tiebreak = groups.map(([rank]) => rank);

  const flush = cards.length === 5 && cards.every((card) => suitOf(card) === suitOf(cards[0]));
  const straightHigh = cards.length === 5 && groups.length === 5 ? straightHighCard(tiebreak) : 0;
  if (straightHigh === 5) ordered = [...ordered.slice(1), ordered[0]];
  if (straightHigh) tiebreak = [straightHigh];

  const ranking = classify(shape, flush, straightHigh);
  return { ranking, cards: ordered, score: score(ranking, tiebreak) };
}

/** The best five of any number of cards (all of them when there are five or fewer). */
export function bestHand(cards: readonly Card[]): EvaluatedHand {
  return best(combinations(cards, Math.min(5, cards.length)).map(evaluateFive));
}

/** Omaha: exactly two hole cards and three community cards (as many as there are, if fewer). */
export function bestOmahaHand(holeCards: readonly Card[], communityCards: readonly Card[]): EvaluatedHand {
  const boards = combinations(communityCards, Math.min(3, communityCards.length));
  return best(combinations(holeCards, 2).flatMap((hole) => boards.map((board) => evaluateFive([...hole, ...board]))));
}

export function bestHandFor(variant: Variant, holeCards: readonly Card[], communityCards: readonly Card[]): EvaluatedHand {
  return variant === 'OMAHA' ? bestOmahaHand(holeCards, communityCards) : bestHand([...holeCards, ...communityCards]);
}

/** > 0 when `a` wins, < 0 when `b` wins, 0 for a split. */
export function compareHands(a: EvaluatedHand, b: EvaluatedHand): number {
  return a.score - b.score;
}

function classify(shape: string, flush: boolean, straightHigh: number): Ranking {
  if (straightHigh && flush) return straightHigh === ACE ? 'ROYAL_FLUSH' : 'STRAIGHT_FLUSH';
  if (shape === '41') return 'FOUR_OF_A_KIND';
  if (shape === '32') return 'FULL_HOUSE';
  if (flush) return 'FLUSH';
  if (straightHigh) return 'STRAIGHT';
  if (shape.startsWith('3')) return 'THREE_OF_A_KIND';
  if (shape.startsWith('22')) return 'TWO_PAIR';
  if (shape.startsWith('2')) return 'PAIR';
  return 'HIGH_CARD';
}

/** Distinct ranks, high first: the straight's high card (5 for the wheel A-2-3-4-5), else 0. */
function straightHighCard(ranks: number[]): number {
  if (ranks[0] - ranks[4] === 4) return ranks[0];
  return ranks.join() === [ACE, 5, 4, 3, 2].join() ? 5 : 0;
}

/** The ranking, then up to five tie-break ranks, as digits of one base-15 number. */
function score(ranking: Ranking, tiebreak: number[]): number {
  const digits = [RANKINGS.indexOf(ranking), ...tiebreak, 0, 0, 0, 0, 0].slice(0, 6);
  return digits.reduce((total, digit) => total * 15 + digit, 0);
}

function best(hands: EvaluatedHand[]): EvaluatedHand {
  return hands.reduce((top, hand) => (compareHands(hand, top) > 0 ? hand : top));
}

function combinations<T>(items: readonly T[], size: number): T[][] {
  if (size === 0) return [[]];
  return items.flatMap((item, i) => combinations(items.slice(i + 1), size - 1).map((rest) => [item, ...rest]));
}
