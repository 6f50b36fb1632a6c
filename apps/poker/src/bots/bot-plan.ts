import { type CommandEmission, type CommandFields, emit } from '@nest-es/core';
import { type BettingAction, type HandState, losing, nextToDraw, PlayerAction, RequestDraw, RevealCards } from '../hand/index.js';
import { botAction, botDiscards } from './bot-policy.js';

/** One move of an AI player: a bet (PlayerAction), in Five Card Draw a draw (RequestDraw), or at the showdown showing or mucking (RevealCards). */
export interface BotMoveMade {
  playerId: string;
  command: 'PlayerAction' | 'RequestDraw' | 'RevealCards';
  action?: BettingAction;
  amount?: number;
  discardIndices?: number[];
  muck?: boolean;
}

/** The moves the AI players of a hand make, and the hand's sequence they were decided on. */
export interface BotPlan {
  moves: BotMoveMade[];
  handSequence: number;
}

/**
 * Who is to move in the hand: the player whose turn it is in a betting round, in the draw (in turn
 * from the left of the dealer), or at the showdown once the first hand is shown (the hand flow
 * shows that one). Whether they are bots is the caller's to say.
 */
export function playersToMove(hand: HandState): string[] {
  if (hand.status === 'drawing') return [nextToDraw(hand)].filter((playerId): playerId is string => playerId !== null);
  if ((hand.status === 'betting' || hand.status === 'showdown') && hand.actionOn) return [hand.actionOn];
  return [];
}

/**
 * The moves the bots make on this hand, at this sequence: the bot whose turn it is, to bet, to draw
 * or to show (it mucks a losing hand). A pure function: the same hand, sequence and bots always give
 * the same plan, so a process manager may decide from it in an event step and replay it identically.
 */
export function planBotMoves(hand: HandState, handSequence: number, bots: ReadonlySet<string>): BotPlan {
  const moves = playersToMove(hand)
    .filter((playerId) => bots.has(playerId))
    .map((playerId): BotMoveMade => {
      const player = hand.players.find((p) => p.playerId === playerId)!;
      if (hand.status === 'drawing') return { playerId, command: 'RequestDraw', discardIndices: botDiscards(player.holeCards) };
      if (hand.status === 'showdown') return { playerId, command: 'RevealCards', muck: losing(hand, player) };
      return { playerId, command: 'PlayerAction', ...botAction(hand, playerId) };
    });
  return { moves, handSequence };
}

/** The fields of the bet a planned move makes. */
export function betFields(handId: string, move: BotMoveMade): CommandFields<PlayerAction> {
  return { handId, playerId: move.playerId, action: move.action!, ...(move.amount === undefined ? {} : { amount: move.amount }) };
}

/** The fields of the draw a planned move makes. */
export function drawFields(handId: string, move: BotMoveMade): CommandFields<RequestDraw> {
  return { handId, playerId: move.playerId, discardIndices: move.discardIndices ?? [] };
}

/** The fields of the show (or muck) a planned move makes. */
export function showFields(handId: string, move: BotMoveMade): CommandFields<RevealCards> {
  return { handId, playerId: move.playerId, muck: move.muck ?? false };
}

/**
 * A planned move as the command a process manager sends. A bet or a show carries the hand sequence
 * it was decided on (the hand is STRICT: if it moved on first, it refuses the stale move); a draw
 * does not (draws go in turns: one out of turn is refused anyway).
 */
export function botMoveEmission(handId: string, handSequence: number, move: BotMoveMade): CommandEmission {
  if (move.command === 'RequestDraw') return emit(RequestDraw, drawFields(handId, move));
  if (move.command === 'RevealCards') return emit(RevealCards, showFields(handId, move), { expectedSequence: handSequence });
  return emit(PlayerAction, betFields(handId, move), { expectedSequence: handSequence });
}
