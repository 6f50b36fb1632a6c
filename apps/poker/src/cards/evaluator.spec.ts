import fc from 'fast-check';
import { type Card, parseCards } from './card.js';
import { newDeck } from './deck.js';
import { bestHand, bestHandFor, bestOmahaHand, compareHands, evaluateFive, RANKINGS, type Ranking } from './evaluator.js';

const hand = (text: string) => evaluateFive(parseCards(text));
const compare = (a: string, b: string) => Math.sign(compareHands(hand(a), hand(b)));

describe('evaluateFive', () => {
  const examples: [Ranking, string][] = [
    ['HIGH_CARD', 'As Jd 9c 6h 3s'],
    ['PAIR', '9s 9d Ac 6h 3s'],
    ['TWO_PAIR', '9s 9d 4c 4h As'],
    ['THREE_OF_A_KIND', '7s 7d 7c Kh 2s'],
    ['STRAIGHT', '9s 8d 7c 6h 5s'],
    ['FLUSH', 'Kh Th 8h 4h 2h'],
    ['FULL_HOUSE', '3s 3d 3c Jh Js'],
    ['FOUR_OF_A_KIND', 'Qc Qd Qh Qs 2c'],
    ['STRAIGHT_FLUSH', '9h 8h 7h 6h 5h'],
    ['ROYAL_FLUSH', 'Ts Js Qs Ks As'],
  ];

  it.each(examples)('recognises %s', (ranking, cards) => {
    expect(hand(cards).ranking).toBe(ranking);
  });

  it('ranks every ranking above the one before it', () => {
    const scores = examples.map(([, cards]) => hand(cards).score);
    expect([...scores].sort((a, b) => a - b)).toEqual(scores);
    expect(examples.map(([ranking]) => ranking)).toEqual([...RANKINGS]);
  });

  it('counts the wheel A-2-3-4-5 as a straight, the lowest one, ace last', () => {
    const wheel = hand('Ac 2d 3h 4s 5c');
    expect(wheel.ranking).toBe('STRAIGHT');
    expect(wheel.cards).toEqual(['5c', '4s', '3h', '2d', 'Ac']);
    expect(compare('Ac 2d 3h 4s 5c', '2c 3d 4h 5s 6c')).toBe(-1);
    expect(compare('Ac 2d 3h 4s 5c', 'Ah Kh Qd 9s 8c')).toBe(1);
  });

  it('counts a suited wheel as a straight flush, not a royal one', () => {
    expect(hand('5d 4d 3d 2d Ad').ranking).toBe('STRAIGHT_FLUSH');
    expect(compare('5d 4d 3d 2d Ad', '6c 5c 4c 3c 2c')).toBe(-1);
  });

  it('does not wrap a straight round the ace', () => {
    expect(hand('Qs Kd Ac 2h 3s').ranking).toBe('HIGH_CARD');
  });

  it('orders the cards by what they mean: the group first, then kickers', () => {
    expect(hand('3s Jd 3c Jh 3d').cards).toEqual(['3s', '3c', '3d', 'Jd', 'Jh']);
    expect(hand('2c As 9d 9h Kc').cards).toEqual(['9d', '9h', 'As', 'Kc', '2c']);
  });

  it.each([
    ['pair: the kicker', 'As Ad Kc 7h 3s', 'Ah Ac Qd 7c 3d'],
    ['pair: the third kicker', 'As Ad Kc 7h 4s', 'Ah Ac Kd 7c 3d'],
    ['two pair: the higher pair', 'Ks Kd 2c 2h 3s', 'Qh Qc Jd Jc Ad'],
    ['two pair: the lower pair', 'Ks Kd 3c 3h 2s', 'Kh Kc 2d 2c Ad'],
    ['two pair: the kicker', 'Ks Kd 3c 3h 5s', 'Kh Kc 3d 3s 4d'],
    ['trips: the kickers', '7s 7d 7c Ah 2s', '7h 7s 7d Kh Qs'],
    ['full house: the trips before the pair', '3s 3d 3c 2h 2s', '2c 2d 2h Ah As'],
    ['quads: the kicker', 'Qc Qd Qh Qs 5c', 'Qc Qd Qh Qs 4c'],
    ['flush: the second card', 'Ah Kh 8h 4h 2h', 'Ad Qd Jd 9d 7d'],
    ['high card: the last card', 'As Jd 9c 6h 4s', 'Ad Jc 9h 6s 3d'],
    ['straight: the top card', 'Ts 9d 8c 7h 6s', '9s 8d 7c 6h 5s'],
  ])('breaks ties by %s', (_rule, winner, loser) => {
    expect(compare(winner, loser)).toBe(1);
    expect(compare(loser, winner)).toBe(-1);
  });

  it('refuses more than five cards', () => {
    expect(() => hand('As Ad Kc 7h 3s 2d')).toThrow(RangeError);
  });

  it('ties identical hands in other suits', () => {
    expect(compare('As Ad Kc 7h 3s', 'Ah Ac Kd 7c 3d')).toBe(0);
    expect(compare('9s 8d 7c 6h 5s', '9h 8c 7d 6s 5c')).toBe(0);
  });
});

describe('bestHand', () => {
  it('picks the best five of seven', () => {
    const best = bestHand(parseCards('Kd Qs Js Ts 9s 8s 2c'));
    expect(best.ranking).toBe('STRAIGHT_FLUSH');
    expect(best.cards).toEqual(['Qs', 'Js', 'Ts', '9s', '8s']);
    expect(bestHand(parseCards('As Kd Qs Js Ts 9s 4h')).ranking).toBe('FLUSH');
  });

  it('lets the board play when the hole cards do not help', () => {
    const a = bestHand(parseCards('2c 3d Ts Js Qs Ks As'));
    const b = bestHand(parseCards('4c 5d Ts Js Qs Ks As'));
    expect(a.ranking).toBe('ROYAL_FLUSH');
    expect(compareHands(a, b)).toBe(0);
  });

  it('ranks fewer than five cards by their groups', () => {
    expect(bestHand(parseCards('As Ad')).ranking).toBe('PAIR');
    expect(bestHand(parseCards('As Kd 5c')).ranking).toBe('HIGH_CARD');
    expect(bestHand(parseCards('As Ad Ac Kd')).ranking).toBe('THREE_OF_A_KIND');
    expect(bestHand(parseCards('As Ad Kc Kd')).ranking).toBe('TWO_PAIR');
  });
});

describe('Omaha: exactly two hole cards and three community cards', () => {
  it('makes no flush from one suited hole card and four on the board', () => {
    const hole = parseCards('As Kd 2c 3d');
    const board = parseCards('Qs Js Ts 9s 4h');
    expect(bestHand([...hole, ...board]).ranking).toBe('FLUSH');
    expect(bestOmahaHand(hole, board).ranking).toBe('STRAIGHT');
  });

  it('cannot use three hole cards', () => {
    const hole = parseCards('As Ks Qs 2d');
    const board = parseCards('Js Ts 3c 4h 5d');
    expect(bestHandFor('TEXAS_HOLDEM', hole, board).ranking).toBe('ROYAL_FLUSH');
    const omaha = bestHandFor('OMAHA', hole, board);
    expect(omaha.ranking).toBe('STRAIGHT');
    expect(omaha.cards).toEqual(['5d', '4h', '3c', '2d', 'As']);
  });

  it('cannot play the board alone', () => {
    expect(bestOmahaHand(parseCards('2c 7d 8h 3s'), parseCards('As Ks Qs Js Ts')).ranking).not.toBe('ROYAL_FLUSH');
  });

  it('uses two hole cards and whatever board there is before the river', () => {
    expect(bestOmahaHand(parseCards('As Ad 2c 3d'), parseCards('Ah 7c 9d')).ranking).toBe('THREE_OF_A_KIND');
  });
});

describe('bestHandFor', () => {
  it('uses the five cards of Five Card Draw', () => {
    expect(bestHandFor('FIVE_CARD_DRAW', parseCards('3s 3d 3c Jh Js'), []).ranking).toBe('FULL_HOUSE');
  });
});

describe('the best hand is the first of the highest score among every hand the cards make', () => {
  const choose = (cards: readonly Card[], size: number): Card[][] =>
    size === 0 ? [[]] : cards.flatMap((card, index) => choose(cards.slice(index + 1), size - 1).map((rest) => [card, ...rest]));
  const first = (hands: Card[][]) => hands.map(evaluateFive).reduce((top, hand) => (hand.score > top.score ? hand : top));
  const dealt = (size: number) => fc.shuffledSubarray(newDeck(), { minLength: size, maxLength: size });

  it('of any one to seven cards', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }).chain(dealt), (cards) => {
        expect(bestHand(cards)).toEqual(first(choose(cards, Math.min(5, cards.length))));
      }),
      { numRuns: 500 },
    );
  });

  it('of two hole cards and up to three of the board in Omaha', () => {
    const deal = fc.constantFrom(0, 3, 4, 5).chain((board) => dealt(4 + board));
    fc.assert(
      fc.property(deal, (cards) => {
        const [hole, board] = [cards.slice(0, 4), cards.slice(4)];
        const hands = choose(hole, 2).flatMap((two) => choose(board, Math.min(3, board.length)).map((three) => [...two, ...three]));
        expect(bestOmahaHand(hole, board)).toEqual(first(hands));
      }),
      { numRuns: 300 },
    );
  });
});
