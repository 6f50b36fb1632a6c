import { parseCards } from './card.js';
import { bestHand } from './evaluator.js';
import { awardPots, type Contender, sidePots, splitPot, strongest } from './pots.js';

const seats = (...ids: string[]) => ids.map((playerId, position) => ({ playerId, position }));

describe('splitPot', () => {
  it('splits evenly', () => {
    expect(splitPot(300, seats('a', 'b', 'c'), 0)).toEqual([
      { playerId: 'b', amount: 100 },
      { playerId: 'c', amount: 100 },
      { playerId: 'a', amount: 100 },
    ]);
  });

  it('gives the odd chip to the first winner left of the dealer', () => {
    expect(splitPot(101, seats('a', 'b'), 0)).toEqual([
      { playerId: 'b', amount: 51 },
      { playerId: 'a', amount: 50 },
    ]);
    expect(splitPot(101, seats('a', 'b'), 1)).toEqual([
      { playerId: 'a', amount: 51 },
      { playerId: 'b', amount: 50 },
    ]);
  });

  it('gives two odd chips to the first two winners left of the dealer, wrapping round', () => {
    const winners = [
      { playerId: 'a', position: 1 },
      { playerId: 'b', position: 4 },
      { playerId: 'c', position: 8 },
    ];
    expect(splitPot(20, winners, 4)).toEqual([
      { playerId: 'c', amount: 7 },
      { playerId: 'a', amount: 7 },
      { playerId: 'b', amount: 6 },
    ]);
  });
});

const contender = (playerId: string, position: number, totalInvested: number, cards?: string, folded = false): Contender => ({
  playerId,
  position,
  totalInvested,
  folded,
  hand: cards ? bestHand(parseCards(cards)) : undefined,
});

describe('sidePots', () => {
  it('makes one pot when everybody put in the same', () => {
    expect(sidePots([contender('a', 0, 100), contender('b', 1, 100)])).toEqual([{ amount: 200, eligible: ['a', 'b'] }]);
  });

  it('makes a side pot above an all-in, folded chips included', () => {
    const pots = sidePots([contender('a', 0, 50), contender('b', 1, 200), contender('c', 2, 200), contender('d', 3, 80, undefined, true)]);
    expect(pots).toEqual([
      { amount: 200, eligible: ['a', 'b', 'c'] },
      { amount: 330, eligible: ['b', 'c'] },
    ]);
  });

  it('adds a folded player\'s chips above every level to the top pot', () => {
    expect(sidePots([contender('a', 0, 100), contender('b', 1, 40), contender('c', 2, 150, undefined, true)])).toEqual([
      { amount: 120, eligible: ['a', 'b'] },
      { amount: 170, eligible: ['a'] },
    ]);
  });
});

describe('awardPots', () => {
  const board = ' 2c 7d 9h Js 4d';

  it('gives the whole pot to the last player in the hand, with no hand shown', () => {
    expect(awardPots([contender('a', 0, 30), contender('b', 1, 20, undefined, true)], 0)).toEqual([{ playerId: 'a', amount: 50 }]);
  });

  it('gives each pot to the best hand that can win it', () => {
    const awards = awardPots(
      [contender('short', 0, 50, 'As Ad' + board), contender('b', 1, 200, 'Kc Ks' + board), contender('c', 2, 200, 'Qc Qd' + board)],
      2,
    );
    expect(awards).toEqual([
      { playerId: 'short', amount: 150 },
      { playerId: 'b', amount: 300 },
    ]);
  });

  it('splits a tie, odd chip left of the dealer', () => {
    const awards = awardPots(
      [contender('a', 0, 50, 'As 3c' + board), contender('b', 3, 50, 'Ah 3d' + board), contender('c', 5, 1, undefined, true)],
      0,
    );
    expect(awards).toEqual([
      { playerId: 'b', amount: 51 },
      { playerId: 'a', amount: 50 },
    ]);
  });

  it('refuses a contested pot nobody showed a hand for', () => {
    expect(() => awardPots([contender('a', 0, 10), contender('b', 1, 10)], 0)).toThrow('no shown hand can win the pot of 20');
  });
});

describe('strongest', () => {
  it('returns every holder of the best hand', () => {
    const hands = [{ id: 'a', hand: bestHand(parseCards('As Ad Kc')) }, { id: 'b', hand: bestHand(parseCards('Ah Ac Kd')) }, { id: 'c', hand: bestHand(parseCards('Qh Qc Kd')) }];
    expect(strongest(hands).map((h) => h.id)).toEqual(['a', 'b']);
    expect(strongest([])).toEqual([]);
  });
});
