export interface Positioned {
  position: number;
}

/** `items` clockwise (ascending positions, wrapping round) starting with the first one after `after`. */
export function clockwiseAfter<T extends Positioned>(items: readonly T[], after: number): T[] {
  const sorted = [...items].sort((a, b) => a.position - b.position);
  const start = sorted.findIndex((item) => item.position > after);
  return start <= 0 ? sorted : [...sorted.slice(start), ...sorted.slice(0, start)];
}

/** Blinds follow the dealer; heads-up the dealer posts the small blind. */
export function blindPositions(players: readonly Positioned[], dealerPosition: number): { small: number; big: number } {
  const order = clockwiseAfter(players, dealerPosition);
  if (players.length === 2) return { small: dealerPosition, big: order[0].position };
  return { small: order[0].position, big: order[1].position };
}
