import { Injectable } from '@nestjs/common';
import { AggregateReader, CommandGateway, FailedPreconditionError, SyncMode } from '@nest-es/core';
import { type HandState, PlayerAction, RequestDraw } from '../hand/index.js';
import type { PlayerState } from '../player/index.js';
import type { TableState } from '../table/index.js';
import { botAction, botDiscards } from './bot-policy.js';

export interface BotMoveMade {
  playerId: string;
  command: 'PlayerAction' | 'RequestDraw';
  action?: string;
  amount?: number;
  discardIndices?: number[];
}

/**
 * Acts for the AI players of a table's running hand: the one whose turn it is, or, in the draw,
 * every AI player still to draw. Moves are plain commands with the hand's correlation id (so the
 * hand flow follows them), sent with CASCADE so the flow has reacted when this returns.
 */
@Injectable()
export class BotPlayer {
  constructor(
    private readonly reader: AggregateReader,
    private readonly gateway: CommandGateway,
  ) {}

  async act(tableId: string): Promise<BotMoveMade[]> {
    const table = (await this.reader.state('table', tableId)).state as TableState;
    if (!table.currentHandId) throw new FailedPreconditionError(`no hand is in progress at table ${tableId}`);
    const handId = table.currentHandId;
    const [first] = await this.reader.events('hand', handId);
    if (!first) return [];
    const hand = (await this.reader.state('hand', handId)).state as HandState;
    const moves: BotMoveMade[] = [];
    if (hand.status === 'drawing') {
      for (const player of hand.players.filter((p) => !p.folded && !p.hasDrawn)) {
        if (await this.isBot(player.playerId)) moves.push({ playerId: player.playerId, command: 'RequestDraw', discardIndices: botDiscards(player.holeCards) });
      }
    } else if (hand.status === 'betting' && hand.actionOn && (await this.isBot(hand.actionOn))) {
      moves.push({ playerId: hand.actionOn, command: 'PlayerAction', ...botAction(hand, hand.actionOn) });
    }
    for (const move of moves) await this.send(handId, first.metadata.correlationId, move);
    return moves;
  }

  private async isBot(playerId: string): Promise<boolean> {
    return ((await this.reader.state('player', playerId)).state as PlayerState).playerType === 'AI';
  }

  private async send(handId: string, correlationId: string, move: BotMoveMade): Promise<void> {
    const command =
      move.command === 'RequestDraw'
        ? Object.assign(new RequestDraw(), { handId, playerId: move.playerId, discardIndices: move.discardIndices })
        : Object.assign(new PlayerAction(), { handId, playerId: move.playerId, action: move.action, amount: move.amount });
    // Each bot acts as its own principal, through the same authorizer as a person would.
    await this.gateway.send(command, { correlationId, syncMode: SyncMode.CASCADE, principal: { id: move.playerId, playerType: 'AI' } });
  }
}
