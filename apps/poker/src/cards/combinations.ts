/**
 * Visits each way of choosing `size` of the indices `from` .. `to - 1`, in lexicographic order, as
 * one array filled in place: a visitor that keeps a choice copies it.
 */
export function eachCombination(from: number, to: number, size: number, visit: (picks: readonly number[]) => void): void {
  const picks = new Array<number>(size);
  const fill = (at: number, start: number): void => {
    if (at === size) return visit(picks);
    for (let index = start; index <= to - (size - at); index++) {
      picks[at] = index;
      fill(at + 1, index + 1);
    }
  };
  fill(0, from);
}
