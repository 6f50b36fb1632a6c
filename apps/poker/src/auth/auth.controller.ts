import { createHash, randomUUID } from 'node:crypto';
import { Body, Controller, Get, Headers, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AggregateReader, CommandGateway, InvalidArgumentError, SyncMode } from '@nest-es/core';
import { ValidBodyPipe } from '@nest-es/http';
import { idProblem } from '../http/valid-id.pipe.js';
import { DepositFunds, RegisterPlayer, type PlayerState } from '../player/index.js';
import { PlayerAuthGuard } from './player-auth.guard.js';
import { PlayerTokens, type PlayerPrincipal } from './player-tokens.service.js';
import { Me, RegisterRequest, Session } from './register.dto.js';

/** Every new player starts with this bankroll; no route adds chips after that. */
export const STARTING_BANKROLL = 1000;

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly gateway: CommandGateway,
    private readonly reader: AggregateReader,
    private readonly tokens: PlayerTokens,
  ) {}

  /**
   * Two commands and a token: a failure between them (a database hiccup) would leave a registered
   * player without chips, whose id no one could sign in to again. With an Idempotency-Key, both
   * commands get Command-Ids derived from the player id and the key, so the same request sent again
   * finishes the job: the store answers a step already done with its first result (registered once,
   * deposited once) and the token is issued. Without the key, or with another one, a taken id is
   * refused by the aggregate (FAILED_PRECONDITION) before any token exists.
   */
  @Post('register')
  @HttpCode(200)
  @ApiOperation({ summary: `Registers a player with ${STARTING_BANKROLL} chips and issues the player's token` })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'A secret the client picks per sign-up (a UUID): the same request sent again with it completes a sign-up cut short and answers 200; without playerId, it also picks the player id',
  })
  @ApiOkResponse({ type: Session })
  async register(@Body(ValidBodyPipe) request: RegisterRequest, @Headers('idempotency-key') idempotencyKey?: string): Promise<Session> {
    const retry = idempotencyKey === undefined ? undefined : keyDigest(idempotencyKey);
    const playerId = request.playerId ?? (retry ? `player-${retry.slice(0, 22)}` : randomUUID());
    const playerType = request.playerType ?? 'HUMAN';
    const principal: PlayerPrincipal = { id: playerId, playerType };
    const commandId = (step: string) => (retry ? `sign-up/${playerId}/${retry}/${step}` : undefined);
    const email = request.email ?? `${playerId}@poker.example`;
    await this.gateway.send(RegisterPlayer, { playerId, displayName: request.displayName, email, playerType }, { principal, authorize: false, commandId: commandId('register') });
    await this.gateway.send(DepositFunds, { playerId, amount: STARTING_BANKROLL }, { principal, authorize: false, syncMode: SyncMode.SIMPLE, commandId: commandId('deposit') });
    return { playerId, ...(await this.tokens.issue(playerId, playerType)) };
  }

  @Get('me')
  @UseGuards(PlayerAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'The signed-in player, and the tables holding chips of theirs' })
  @ApiOkResponse({ type: Me })
  async me(@Req() request: { user: PlayerPrincipal }): Promise<Me> {
    const state = (await this.reader.state('player', request.user.id)).state as PlayerState;
    return { playerId: request.user.id, displayName: state.displayName, playerType: state.playerType, tables: Object.keys(state.reservations) };
  }
}

/**
 * The key as the Command-Ids carry it: its SHA-256, so the key itself, which lets its holder finish
 * the sign-up and take the token, is never stored in the events' metadata.
 */
function keyDigest(key: string): string {
  const problem = idProblem(key);
  if (problem) throw new InvalidArgumentError(`Idempotency-Key ${problem}`);
  return createHash('sha256').update(key).digest('base64url');
}
