import { Injectable } from '@nestjs/common';
import { AggregateReader, CommandGateway, ErrorCode, EventSourcingError, FailedPreconditionError, PermissionDeniedError, type SendOptions, SyncMode } from '@nest-es/core';
import { type HandState, PlayerAction, RequestDraw, RevealCards } from '../hand/index.js';
import type { PlayerState } from '../player/index.js';
import type { TableState } from '../table/index.js';
import { betFields, type BotMoveMade, drawFields, planBotMoves, playersToMove, showFields } from './bot-plan.js';

export type { BotMoveMade, BotPlan } from './bot-plan.js';

/**
 * The `bots/act` route's side of the bots: the AI players of a table's running hand move at once,
 * each as its own principal. A request, not a reaction, so it reads the hand and the players as
 * they are now; what they play is the same pure plan the bot-turns process manager sends at the
 * table's pace (`planBotMoves`).
 */
@Injectable()
export class BotPlayer {
  constructor(
    private readonly reader: AggregateReader,
    private readonly gateway: CommandGateway,
  ) {}

  /** Moves now for the bots of the table's running hand, with CASCADE, when a player seated there (`requestedBy`) asks. */
  async act(tableId: string, requestedBy: string): Promise<BotMoveMade[]> {
    const table = (await this.reader.state('table', tableId)).state as TableState;
    if (!Object.values(table.seats).some((seat) => seat.playerId === requestedBy)) {
      throw new PermissionDeniedError(`${requestedBy} is not seated at table ${tableId}: only its players may have its bots move`);
    }
    if (!table.currentHandId) throw new FailedPreconditionError(`no hand is in progress at table ${tableId}`);
    const handId = table.currentHandId;
    const current = await this.hand(handId);
    // The table started the hand, but its cards are not dealt yet: nobody is to move.
    if (!current) return [];
    const bots = new Set<string>();
    for (const playerId of playersToMove(current.hand)) if (await this.isBot(playerId)) bots.add(playerId);
    const { moves, handSequence } = planBotMoves(current.hand, current.sequence, bots);
    for (const move of moves) {
      // Each bot acts as its own principal, through the same authorizer as a person would; a bet
      // decided on a hand that has moved on since is refused rather than played.
      const options: SendOptions = { syncMode: SyncMode.CASCADE, principal: { id: move.playerId, playerType: 'AI' } };
      if (move.command === 'RequestDraw') await this.gateway.send(RequestDraw, drawFields(handId, move), options);
      else if (move.command === 'RevealCards') await this.gateway.send(RevealCards, showFields(handId, move), { ...options, expectedSequence: handSequence });
      else await this.gateway.send(PlayerAction, betFields(handId, move), { ...options, expectedSequence: handSequence });
    }
    return moves;
  }

  /** The hand and its sequence now; null while it has no events. */
  private async hand(handId: string): Promise<{ hand: HandState; sequence: number } | null> {
    try {
      const { state, sequence } = await this.reader.state('hand', handId);
      return { hand: state as HandState, sequence };
    } catch (error) {
      if (error instanceof EventSourcingError && error.code === ErrorCode.NOT_FOUND) return null;
      throw error;
    }
  }

  private async isBot(playerId: string): Promise<boolean> {
    return ((await this.reader.state('player', playerId)).state as PlayerState).playerType === 'AI';
  }
}
