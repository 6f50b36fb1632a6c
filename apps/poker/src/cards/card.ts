/** A card is rank then suit: `As`, `Td`, `9c`, `2h`. */
export type Card = string;

export const RANKS = '23456789TJQKA';
export const SUITS = 'cdhs';
export const CARD_PATTERN = /^[2-9TJQKA][cdhs]$/;

export function isCard(value: unknown): value is Card {
  return typeof value === 'string' && CARD_PATTERN.test(value);
}

/** 2 .. 14 (the ace is high; the evaluator handles the wheel). */
export function rankValue(card: Card): number {
  return RANKS.indexOf(card[0]) + 2;
}

export function suitOf(card: Card): string {
  return card[1];
}

/** `'As Kd, 7c'` -> `['As', 'Kd', '7c']`; throws naming the first string that is not a card. */
export function parseCards(text: string): Card[] {
  const cards = text.split(/[\s,]+/).filter(Boolean);
  const bad = cards.find((card) => !isCard(card));
  if (bad !== undefined) throw new RangeError(`'${bad}' is not a card: rank one of ${RANKS}, suit one of ${SUITS}`);
  return cards;
}
