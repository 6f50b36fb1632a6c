export const VARIANTS = ['TEXAS_HOLDEM', 'OMAHA', 'FIVE_CARD_DRAW'] as const;
export type Variant = (typeof VARIANTS)[number];

/** Hole cards each player is dealt. */
export const HOLE_CARDS: Record<Variant, number> = { TEXAS_HOLDEM: 2, OMAHA: 4, FIVE_CARD_DRAW: 5 };
