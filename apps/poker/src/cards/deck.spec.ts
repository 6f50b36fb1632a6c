import { isCard, parseCards } from './card.js';
import { newDeck, randomSeed, shuffledDeck } from './deck.js';

describe('cards', () => {
  it('accepts rank then suit', () => {
    expect(['As', 'Td', '9c', '2h'].every(isCard)).toBe(true);
    expect(['as', '1c', 'Ax', '10h', 'A', 42].some(isCard)).toBe(false);
  });

  it('parses a list and names the first bad card', () => {
    expect(parseCards('As Kd, 7c')).toEqual(['As', 'Kd', '7c']);
    expect(() => parseCards('As 1d Kc')).toThrow("'1d' is not a card");
  });
});

describe('deck', () => {
  it('has the 52 distinct cards', () => {
    const deck = newDeck();
    expect(deck).toHaveLength(52);
    expect(new Set(deck).size).toBe(52);
    expect(deck.every(isCard)).toBe(true);
  });

  it('shuffles the same way for the same seed', () => {
    expect(shuffledDeck('hand-7')).toEqual(shuffledDeck('hand-7'));
    expect(shuffledDeck(42)).toEqual(shuffledDeck(42));
  });

  it('shuffles differently for different seeds, always a permutation of the deck', () => {
    const a = shuffledDeck('a');
    const b = shuffledDeck('b');
    expect(a).not.toEqual(b);
    expect(a).not.toEqual(newDeck());
    expect([...a].sort()).toEqual([...newDeck()].sort());
  });

  it('pins the order for a seed, so recorded hands replay the same', () => {
    expect(shuffledDeck('poker').slice(0, 8)).toEqual(['Qs', '4c', '5s', '9h', '9d', '7h', '5h', '3c']);
  });

  it('draws fresh random seeds', () => {
    expect(randomSeed()).not.toBe(randomSeed());
  });
});
