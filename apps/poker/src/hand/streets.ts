import type { Variant } from '../cards/index.js';
import type { Phase } from './hand.state.js';

/** Hold'em and Omaha streets: the phase a closed round leads to, and how many cards it deals. */
export const STREETS: Partial<Record<Phase, { phase: Phase; count: number }>> = {
  PREFLOP: { phase: 'FLOP', count: 3 },
  FLOP: { phase: 'TURN', count: 1 },
  TURN: { phase: 'RIVER', count: 1 },
};

/** The phase whose betting round is the hand's last: after it comes the showdown. */
export function lastBettingRound(variant: Variant): Phase {
  return variant === 'FIVE_CARD_DRAW' ? 'DRAW' : 'RIVER';
}
