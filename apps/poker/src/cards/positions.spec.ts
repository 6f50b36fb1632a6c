import { blindPositions, clockwiseAfter } from './positions.js';

const at = (...positions: number[]) => positions.map((position) => ({ position }));

describe('clockwiseAfter', () => {
  it('starts after the given position and wraps round', () => {
    expect(clockwiseAfter(at(7, 1, 4), 4).map((p) => p.position)).toEqual([7, 1, 4]);
    expect(clockwiseAfter(at(7, 1, 4), 7).map((p) => p.position)).toEqual([1, 4, 7]);
    expect(clockwiseAfter(at(7, 1, 4), 5).map((p) => p.position)).toEqual([7, 1, 4]);
    expect(clockwiseAfter(at(7, 1, 4), -1).map((p) => p.position)).toEqual([1, 4, 7]);
  });
});

describe('blindPositions', () => {
  it('puts the blinds on the two seats after the dealer', () => {
    expect(blindPositions(at(0, 3, 5, 8), 5)).toEqual({ small: 8, big: 0 });
    expect(blindPositions(at(0, 3, 5, 8), 8)).toEqual({ small: 0, big: 3 });
  });

  it('heads-up, makes the dealer the small blind', () => {
    expect(blindPositions(at(2, 6), 6)).toEqual({ small: 6, big: 2 });
    expect(blindPositions(at(2, 6), 2)).toEqual({ small: 2, big: 6 });
  });
});
