import { type CommandEmission, type CommandFields, emit } from '@nest-es/core';
import { type BettingAction, type HandState, PlayerAction, RequestDraw } from '../hand/index.js';
import { botAction, botDiscards } from './bot-policy.js';

/** One move of an AI player: a bet (PlayerAction) or, in Five Card Draw, a draw (RequestDraw). */
export interface BotMoveMade {
  playerId: string;
  command: 'PlayerAction' | 'RequestDraw';
  action?: BettingAction;
  amount?: number;
  discardIndices?: number[];
}

/** The moves the AI players of a hand make, and the hand's sequence they were decided on. */
export interface BotPlan {
  moves: BotMoveMade[];
  handSequence: number;
}

/**
 * Who is to move in the hand: the player whose turn it is in a betting round, or, in the draw,
 * everyone still in who has not drawn. Whether they are bots is the caller's to say.
 */
export function playersToMove(hand: HandState): string[] {
  if (hand.status === 'drawing') return hand.players.filter((player) => !player.folded && !player.hasDrawn).map((player) => player.playerId);
  if (hand.status === 'betting' && hand.actionOn) return [hand.actionOn];
  return [];
}

/**
 * The moves the bots make on this hand, at this sequence: the bot whose turn it is, or, in the
 * draw, every bot still to draw. A pure function: the same hand, sequence and bots always give the
 * same plan, so a process manager may decide from it in an event step and replay it identically.
 */
export function planBotMoves(hand: HandState, handSequence: number, bots: ReadonlySet<string>): BotPlan {
  const moves = playersToMove(hand)
    .filter((playerId) => bots.has(playerId))
    .map((playerId): BotMoveMade => {
      if (hand.status === 'drawing') {
        const player = hand.players.find((p) => p.playerId === playerId)!;
        return { playerId, command: 'RequestDraw', discardIndices: botDiscards(player.holeCards) };
      }
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

/**
 * A planned move as the command a process manager sends. A bet carries the hand sequence it was
 * decided on (the hand is STRICT: if it moved on first, it refuses the stale bet); a draw does not,
 * as the bots still to draw draw one after the other.
 */
export function botMoveEmission(handId: string, handSequence: number, move: BotMoveMade): CommandEmission {
  return move.command === 'RequestDraw' ? emit(RequestDraw, drawFields(handId, move)) : emit(PlayerAction, betFields(handId, move), { expectedSequence: handSequence });
}
