import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Inject, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CommandGateway, EVENT_STORE, type EventStore, PermissionDeniedError, SyncMode } from '@nest-es/core';
import { ValidBodyPipe } from '@nest-es/http';
import { PlayerAuthGuard } from '../auth/player-auth.guard.js';
import type { PlayerPrincipal } from '../auth/player-tokens.service.js';
import { BUY_IN_SEAT, type BuyInCompleted, type BuyInFailed, TOP_UP } from '../flows/index.js';
import { ReserveFunds } from '../player/index.js';
import { BuyInOutcome, BuyInRequest, TopUpRequest } from './buy-in.dto.js';
import { ValidIdPipe } from './valid-id.pipe.js';

/**
 * `POST /tables/:id/buy-in`: each request is a new buy-in process under a fresh correlation id.
 * It starts by reserving the funds (ReserveFunds with that correlation id and the seat as event
 * metadata); the buy-in process manager starts on that FundsReserved. No extra aggregate is
 * needed, and a refused reservation (unknown player, insufficient funds) is answered at once,
 * with nothing to undo. CASCADE waits until the whole flow has run, so the outcome is known.
 * `POST /tables/:id/top-up` runs the same flow for a seated player's stack, between hands: the
 * top-up is added to the player's reservation for the table (ReserveFunds with `topUp`), checked
 * against the table's maxBuyIn and credited (TopUp), or released alone.
 * Only the signed-in player may buy themselves in or top up: the two routes that move their chips to a table.
 */
@ApiTags('poker')
@Controller('tables')
export class BuyInController {
  constructor(
    private readonly gateway: CommandGateway,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  @Post(':tableId/buy-in')
  @HttpCode(200)
  @ApiOperation({ summary: 'Buy in at a table: reserve the funds, check the table, take the seat (or release the funds)' })
  @ApiBody({ type: BuyInRequest })
  @ApiOkResponse({ type: BuyInOutcome })
  @ApiBearerAuth()
  @UseGuards(PlayerAuthGuard)
  async buyIn(@Param('tableId', ValidIdPipe) tableId: string, @Body(ValidBodyPipe) request: BuyInRequest, @Req() { user }: { user: PlayerPrincipal }): Promise<BuyInOutcome> {
    if (request.playerId !== user.id) throw new PermissionDeniedError(`${user.id} may not buy in ${request.playerId}`);
    const buyInId = randomUUID();
    await this.gateway.send(ReserveFunds, { playerId: request.playerId, tableId, amount: request.amount }, { correlationId: buyInId, metadata: { [BUY_IN_SEAT]: request.seat }, syncMode: SyncMode.CASCADE, principal: user, authorize: false });
    return this.outcome({ buyInId, playerId: request.playerId, tableId, seat: request.seat, amount: request.amount, status: 'PENDING' });
  }

  @Post(':tableId/top-up')
  @HttpCode(200)
  @ApiOperation({ summary: "Top up a seated player's stack between hands, up to the table's maxBuyIn: reserve the funds, credit the stack (or release them)" })
  @ApiBody({ type: TopUpRequest })
  @ApiOkResponse({ type: BuyInOutcome })
  @ApiBearerAuth()
  @UseGuards(PlayerAuthGuard)
  async topUp(@Param('tableId', ValidIdPipe) tableId: string, @Body(ValidBodyPipe) request: TopUpRequest, @Req() { user }: { user: PlayerPrincipal }): Promise<BuyInOutcome> {
    if (request.playerId !== user.id) throw new PermissionDeniedError(`${user.id} may not top up ${request.playerId}`);
    const buyInId = randomUUID();
    const reserve = { playerId: request.playerId, tableId, amount: request.amount, topUp: true };
    await this.gateway.send(ReserveFunds, reserve, { correlationId: buyInId, metadata: { [TOP_UP]: true }, syncMode: SyncMode.CASCADE, principal: user, authorize: false });
    return this.outcome({ buyInId, playerId: request.playerId, tableId, seat: -1, amount: request.amount, status: 'PENDING' });
  }

  /** The outcome as the process recorded it in its own events. */
  private async outcome(outcome: BuyInOutcome): Promise<BuyInOutcome> {
    const { buyInId } = outcome;
    for (const event of await this.events.readStream({ aggregateType: 'buy-in', aggregateId: buyInId })) {
      if (event.type === 'BuyInCompleted') Object.assign(outcome, { status: 'COMPLETED', seat: (event.payload as BuyInCompleted).seat });
      if (event.type === 'BuyInFailed') Object.assign(outcome, { status: 'FAILED', ...(event.payload as BuyInFailed) });
    }
    return outcome;
  }
}
