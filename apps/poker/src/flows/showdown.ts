import { type Award, awardPots, bestHandFor } from '../cards/index.js';
import type { HandFlowState } from './hand-flow.state.js';

/**
 * Who wins what once every contender has shown: each player's investment is what left their
 * stack during the hand, shown hands are evaluated against the board, and every pot (main and
 * side pots) goes to its best eligible hand. Zero shares of a split are left out: AwardPot takes
 * positive awards only.
 */
export function showdownAwards(state: HandFlowState): Award[] {
  const entries = state.players.map((player) => ({
    playerId: player.playerId,
    position: player.position,
    totalInvested: player.startingStack - player.stack,
    folded: player.folded,
    hand: player.shown ? bestHandFor(state.variant, player.shown, state.communityCards) : undefined,
  }));
  return awardPots(entries, state.dealerPosition).filter((award) => award.amount > 0);
}
