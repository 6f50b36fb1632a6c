import type { Variant } from '../cards/index.js';
import type { Phase } from './hand.state.js';

/** A Hold'em or Omaha street: the phase it opens, and how many cards it deals. */
export interface Street {
  phase: Phase;
  count: number;
}

/** Hold'em and Omaha streets, by the phase whose closed round leads to them. */
export const STREETS: Partial<Record<Phase, Street>> = {
  PREFLOP: { phase: 'FLOP', count: 3 },
  FLOP: { phase: 'TURN', count: 1 },
  TURN: { phase: 'RIVER', count: 1 },
};

/** The phase whose betting round is the hand's last: after it comes the showdown. */
export function lastBettingRound(variant: Variant): Phase {
  return variant === 'FIVE_CARD_DRAW' ? 'DRAW' : 'RIVER';
}
