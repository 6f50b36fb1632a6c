import { eachCombination } from './combinations.js';

const all = (from: number, to: number, size: number): number[][] => {
  const seen: number[][] = [];
  eachCombination(from, to, size, (picks) => seen.push([...picks]));
  return seen;
};

describe('eachCombination', () => {
  it('visits every choice once, in lexicographic order', () => {
    expect(all(0, 4, 2)).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 2],
      [1, 3],
      [2, 3],
    ]);
    expect(all(0, 7, 5)).toHaveLength(21);
  });

  it('chooses among the indices from `from` on', () => {
    expect(all(4, 7, 3)).toEqual([[4, 5, 6]]);
  });

  it('has one empty choice of none, and none of more than there are', () => {
    expect(all(0, 3, 0)).toEqual([[]]);
    expect(all(0, 2, 3)).toEqual([]);
  });
});
