import { type Card, clockwiseAfter } from '../cards/index.js';
import type { BettingAction, BlindType } from './hand.commands.js';
import type { HandPlayerState, HandState, Phase } from './hand.state.js';

// State transitions shared by the appliers and by the handlers, which run them on a copy to
// find out whose turn follows and whether the round closes before they emit their events.

/** Chips going from a player's stack into the pot, as the events record them. */
export interface Chips {
  playerId: string;
  amount: number;
  playerStack: number;
  potTotal: number;
}

export interface Turn {
  actionOn: string | null;
  amountToCall: number;
  closed: boolean;
}

export function findPlayer(state: HandState, playerId: string): HandPlayerState | undefined {
  return state.players.find((player) => player.playerId === playerId);
}

/** Players who have not folded. */
export function stillIn(state: HandState): HandPlayerState[] {
  return state.players.filter((player) => !player.folded);
}

export function applyBlind(state: HandState, blind: Chips & { blindType: BlindType }): void {
  putIn(state, blind);
  if (blind.blindType === 'small') {
    state.smallBlindPosted = true;
    return;
  }
  state.currentBet = Math.max(state.bigBlind, blind.amount);
  state.minRaise = state.bigBlind;
  state.status = 'betting';
}

/**
 * Any raise of the current bet re-opens the action for everyone else, even an all-in short of a
 * full raise (a simplification); only a full raise sets the new minimum raise.
 */
export function applyAction(state: HandState, move: Chips & { action: BettingAction }): void {
  const player = putIn(state, move);
  player.hasActed = true;
  if (move.action === 'FOLD') player.folded = true;
  if (player.betThisRound > state.currentBet) {
    state.minRaise = Math.max(state.minRaise, player.betThisRound - state.currentBet);
    state.currentBet = player.betThisRound;
    for (const other of state.players) if (other !== player) other.hasActed = false;
  }
}

export function applyCommunityCards(state: HandState, cards: readonly Card[], phase: Phase): void {
  state.communityCards.push(...cards);
  state.deck = state.deck.slice(cards.length);
  state.phase = phase;
  startRound(state);
}

/** Replaces the discarded cards in place; the last draw opens the final betting round. */
export function applyDraw(state: HandState, playerId: string, discarded: readonly Card[], drawn: readonly Card[]): void {
  const player = findPlayer(state, playerId)!;
  player.holeCards = player.holeCards.map((card) => (discarded.includes(card) ? drawn[discarded.indexOf(card)] : card));
  player.hasDrawn = true;
  state.deck = state.deck.slice(drawn.length);
  if (stillIn(state).every((p) => p.hasDrawn)) startRound(state);
}

/** Who acts after `position` (clockwise), unless the round is closed. */
export function turnAfter(state: HandState, position: number): Turn {
  if (roundClosed(state)) return { actionOn: null, amountToCall: 0, closed: true };
  const next = clockwiseAfter(state.players, position).find((player) => owesAction(state, player))!;
  return { actionOn: next.playerId, amountToCall: state.currentBet - next.betThisRound, closed: false };
}

/**
 * A round closes when one player is left, or when every player still able to act (not folded,
 * not all-in) has acted and matched the current bet. A lone player able to act who has matched
 * it has nobody left to bet against, so their round is closed too.
 */
function roundClosed(state: HandState): boolean {
  if (stillIn(state).length <= 1) return true;
  const able = state.players.filter(canAct);
  if (able.length === 1) return able[0].betThisRound >= state.currentBet;
  return !able.some((player) => owesAction(state, player));
}

function canAct(player: HandPlayerState): boolean {
  return !player.folded && !player.allIn;
}

function owesAction(state: HandState, player: HandPlayerState): boolean {
  return canAct(player) && (!player.hasActed || player.betThisRound < state.currentBet);
}

function startRound(state: HandState): void {
  for (const player of state.players) {
    player.betThisRound = 0;
    player.hasActed = false;
  }
  state.currentBet = 0;
  state.minRaise = state.bigBlind;
  state.status = 'betting';
}

function putIn(state: HandState, chips: Chips): HandPlayerState {
  const player = findPlayer(state, chips.playerId)!;
  player.stack = chips.playerStack;
  player.betThisRound += chips.amount;
  player.totalInvested += chips.amount;
  player.allIn = chips.playerStack === 0;
  state.pot = chips.potTotal;
  return player;
}
