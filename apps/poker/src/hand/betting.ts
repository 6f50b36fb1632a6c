import { FailedPreconditionError, InvalidArgumentError } from '@nest-es/core';
import { type Card, clockwiseAfter } from '../cards/index.js';
import { drawnHand } from './dealing.js';
import type { BettingAction, BlindType, PlayerAction } from './hand.commands.js';
import type { HandPlayerState, HandState, Phase } from './hand.state.js';

// Betting rules, and the state transitions shared by the appliers and the handlers: a handler
// runs them on a copy to find out whose turn follows and whether the round closes.

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

/** The turn while the round has not started yet (between the blinds, during the draw). */
export const NOBODY_YET: Readonly<Turn> = { actionOn: null, amountToCall: 0, closed: false };

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
    state.lastAggressor = player.playerId;
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
  player.holeCards = drawnHand(player.holeCards, discarded, drawn);
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
  state.lastAggressor = null;
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

/** The chips an action puts in, or why it is not allowed now. */
export function chipsFor(command: PlayerAction, player: HandPlayerState, state: HandState): number {
  const toCall = state.currentBet - player.betThisRound;
  switch (command.action) {
    case 'FOLD':
      return 0;
    case 'CHECK':
      if (toCall > 0) throw new InvalidArgumentError(`cannot check facing a bet: ${toCall} to call`);
      return 0;
    case 'CALL':
      if (toCall === 0) throw new InvalidArgumentError('nothing to call: check instead');
      return Math.min(toCall, player.stack);
    case 'ALL_IN':
      return player.stack;
    case 'BET':
      if (state.currentBet > 0) throw new InvalidArgumentError(`cannot bet into a bet of ${state.currentBet}: raise instead`);
      return sized('bet', requireAmount(command), 0, player, state.minRaise);
    case 'RAISE':
      if (state.currentBet === 0) throw new InvalidArgumentError('cannot raise: there is no bet; bet instead');
      return sized('raise', requireAmount(command), toCall, player, state.minRaise);
  }
}

/** A bet or raise of `amount` above `toCall`: at least the minimum unless it is the whole stack. */
function sized(what: string, amount: number, toCall: number, player: HandPlayerState, minimum: number): number {
  const chips = toCall + amount;
  if (chips > player.stack) throw new FailedPreconditionError(`${what} ${amount} needs ${chips} chips but the stack is ${player.stack}`);
  if (chips < player.stack && amount < minimum) throw new InvalidArgumentError(`${what} ${amount} is below the minimum ${minimum}`);
  return chips;
}

function requireAmount(command: PlayerAction): number {
  if (command.amount === undefined) throw new InvalidArgumentError(`${command.action} needs an amount`);
  return command.amount;
}
