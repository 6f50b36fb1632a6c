import { Inject, Injectable } from '@nestjs/common';
import { AggregateReader, CommandGateway, EVENT_STORE, type EventStore, FailedPreconditionError, SyncMode } from '@nest-es/core';
import { handCorrelationId } from '../flows/hand-correlation.js';
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

/** The moves the AI players of a hand would make now, and the hand's sequence they were decided on. */
export interface BotPlan {
  moves: BotMoveMade[];
  handSequence: number;
}

/**
 * Decides for the AI players of a hand: the one whose turn it is, or, in the draw, every AI player
 * still to draw. The bot-turns process manager sends these moves at the table's pace; the
 * `bots/act` route sends them at once, as each bot's own principal.
 */
@Injectable()
export class BotPlayer {
  constructor(
    private readonly reader: AggregateReader,
    private readonly gateway: CommandGateway,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  /** Moves now for the bots of the table's running hand, with the hand's correlation id and CASCADE. */
  async act(tableId: string): Promise<BotMoveMade[]> {
    const table = (await this.reader.state('table', tableId)).state as TableState;
    if (!table.currentHandId) throw new FailedPreconditionError(`no hand is in progress at table ${tableId}`);
    const handId = table.currentHandId;
    const correlationId = await handCorrelationId(this.store, handId);
    if (!correlationId) return [];
    const { moves, handSequence } = await this.plan(handId);
    for (const move of moves) {
      // Each bot acts as its own principal, through the same authorizer as a person would; a bet
      // decided on a hand that has moved on since is refused rather than played.
      const expectedSequence = move.command === 'PlayerAction' ? handSequence : undefined;
      await this.gateway.send(this.command(handId, move), { correlationId, expectedSequence, syncMode: SyncMode.CASCADE, principal: { id: move.playerId, playerType: 'AI' } });
    }
    return moves;
  }

  async plan(handId: string): Promise<BotPlan> {
    const { state, sequence } = await this.reader.state('hand', handId);
    const hand = state as HandState;
    const moves: BotMoveMade[] = [];
    if (hand.status === 'drawing') {
      for (const player of hand.players.filter((p) => !p.folded && !p.hasDrawn)) {
        if (await this.isBot(player.playerId)) moves.push({ playerId: player.playerId, command: 'RequestDraw', discardIndices: botDiscards(player.holeCards) });
      }
    } else if (hand.status === 'betting' && hand.actionOn && (await this.isBot(hand.actionOn))) {
      moves.push({ playerId: hand.actionOn, command: 'PlayerAction', ...botAction(hand, hand.actionOn) });
    }
    return { moves, handSequence: sequence };
  }

  command(handId: string, move: BotMoveMade): PlayerAction | RequestDraw {
    return move.command === 'RequestDraw'
      ? Object.assign(new RequestDraw(), { handId, playerId: move.playerId, discardIndices: move.discardIndices })
      : Object.assign(new PlayerAction(), { handId, playerId: move.playerId, action: move.action, amount: move.amount });
  }

  private async isBot(playerId: string): Promise<boolean> {
    return ((await this.reader.state('player', playerId)).state as PlayerState).playerType === 'AI';
  }
}
