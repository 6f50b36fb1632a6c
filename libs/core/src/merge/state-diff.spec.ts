import { changedPaths, overlappingPaths } from './state-diff.js';

describe('changedPaths', () => {
  it('names the top-level fields that changed (a rename: displayName changed, bankroll did not)', () => {
    expect(changedPaths({ bankroll: 1000, displayName: 'Alice' }, { bankroll: 1000, displayName: 'Ace' })).toEqual(['displayName']);
    expect(changedPaths({ bankroll: 1000 }, { bankroll: 1500 })).toEqual(['bankroll']);
  });

  it('walks nested objects and maps by path, added and removed keys included', () => {
    const before = { address: { city: 'Oslo', street: 'Main' }, seats: new Map([['t1', 100]]) };
    const after = { address: { city: 'Oslo', street: 'Side' }, seats: new Map([['t2', 50]]) };
    expect(changedPaths(before, after).sort()).toEqual(['address.street', 'seats.t1', 'seats.t2']);
  });

  it('compares class instances by their fields, so a replayed class state and a plain snapshot copy agree', () => {
    class Wallet {
      constructor(
        readonly owner: string,
        readonly chips: number,
      ) {}
    }
    expect(changedPaths({ wallet: new Wallet('a', 1) }, { wallet: { owner: 'a', chips: 1 } })).toEqual([]);
    expect(changedPaths(new Wallet('a', 1), new Wallet('a', 2))).toEqual(['chips']);
  });

  it('treats arrays, sets and dates as whole values', () => {
    expect(changedPaths({ tags: ['a', 'b'] }, { tags: ['a', 'b'] })).toEqual([]);
    expect(changedPaths({ tags: ['a', 'b'] }, { tags: ['b', 'a'] })).toEqual(['tags']);
    expect(changedPaths({ seen: new Set([1, 2]) }, { seen: new Set([2, 1]) })).toEqual([]);
    expect(changedPaths({ seen: new Set([1]) }, { seen: new Set([1, 3]) })).toEqual(['seen']);
    expect(changedPaths({ at: new Date(5) }, { at: new Date(5) })).toEqual([]);
    expect(changedPaths({ at: new Date(5) }, { at: new Date(6) })).toEqual(['at']);
    expect(changedPaths({ rows: [{ a: 1 }] }, { rows: [{ a: 2 }] })).toEqual(['rows']);
  });

  it('cannot tell fields of states that are not objects: the whole state, *', () => {
    expect(changedPaths(3, 4)).toEqual(['*']);
    expect(changedPaths([1], [2])).toEqual(['*']);
    expect(changedPaths(3, 3)).toEqual([]);
  });

  it('sees no change where a key is missing on one side and undefined on the other', () => {
    expect(changedPaths({ a: 1, b: undefined }, { a: 1 })).toEqual([]);
  });
});

describe('overlappingPaths', () => {
  it('overlaps equal paths and paths inside one another, not mere prefixes of a name', () => {
    expect(overlappingPaths(['bankroll', 'available'], ['bankroll'])).toEqual(['bankroll']);
    expect(overlappingPaths(['reservations.t1'], ['reservations'])).toEqual(['reservations']);
    expect(overlappingPaths(['address'], ['address.city'])).toEqual(['address.city']);
    expect(overlappingPaths(['displayName'], ['bankroll'])).toEqual([]);
    expect(overlappingPaths(['bankrollHistory'], ['bankroll'])).toEqual([]);
  });
});
