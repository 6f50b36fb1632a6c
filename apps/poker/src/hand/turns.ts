import { bestHandFor, clockwiseAfter, compareHands, type EvaluatedHand, sidePots } from '../cards/index.js';
import { stillIn } from './betting.js';
import type { HandPlayerState, HandState } from './hand.state.js';

// Whose turn it is outside the betting rounds: in the draw, and at the showdown. Shared by the
// hand's handlers and appliers, and by the bots' plan, which decides on the same state.

/** Five Card Draw: who draws next, in turn from the first player still in left of the dealer. */
export function nextToDraw(state: HandState): string | null {
  return clockwiseAfter(stillIn(state), state.dealerPosition).find((player) => !player.hasDrawn)?.playerId ?? null;
}

/** Two or more players still in: the pot is contested and goes to a showdown of cards. */
export function contested(state: HandState): boolean {
  return stillIn(state).length >= 2;
}

/**
 * Who shows first at a contested showdown: the last aggressor of the last betting round if still in,
 * else (the round was checked around) the first player still in left of the dealer.
 */
export function firstToShow(state: HandState): string | null {
  if (!contested(state)) return null;
  const aggressor = state.players.find((player) => player.playerId === state.lastAggressor && !player.folded);
  return aggressor?.playerId ?? clockwiseAfter(stillIn(state), state.dealerPosition)[0].playerId;
}

/** Who is next to show after the player at `position`: the next player still in, clockwise, who has not shown. */
export function nextToShowAfter(state: HandState, position: number): HandPlayerState | undefined {
  return clockwiseAfter(stillIn(state), position).find((player) => player.shown === null);
}

/** Whose turn it is to show now: the first to show until someone has, then whoever the last show passed the turn to. */
export function toShow(state: HandState): string | null {
  return state.players.some((player) => player.shown !== null) ? state.actionOn : firstToShow(state);
}

/**
 * A losing hand: in every pot the player could win against someone else, a hand already shown by a
 * player who could win it too beats it. Only such a hand may be mucked; any other can still win, so
 * it is shown. (A pot only the player can win, their own uncalled chips, goes back to them unshown.)
 */
export function losing(state: HandState, player: HandPlayerState): boolean {
  const hand = evaluated(state, player);
  return contestedPots(state)
    .filter((eligible) => eligible.includes(player.playerId))
    .every((eligible) => state.players.some((other) => other.shown === 'revealed' && eligible.includes(other.playerId) && compareHands(evaluated(state, other), hand) > 0));
}

/** The players who could win each pot shared by two or more (all of them still in when nobody put in anything). */
function contestedPots(state: HandState): string[][] {
  const pots = sidePots(state.players).map((pot) => pot.eligible);
  const all = stillIn(state).map((player) => player.playerId);
  return (pots.length > 0 ? pots : [all]).filter((eligible) => eligible.length >= 2);
}

function evaluated(state: HandState, player: HandPlayerState): EvaluatedHand {
  return bestHandFor(state.variant, player.holeCards, state.communityCards);
}
