import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { AggregateReader, CommandGateway, SyncMode, validateCommand } from '@nest-es/core';
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

  @Post('register')
  @HttpCode(200)
  @ApiOperation({ summary: `Registers a player with ${STARTING_BANKROLL} chips and issues the player's token` })
  @ApiOkResponse({ type: Session })
  async register(@Body() body: unknown): Promise<Session> {
    const request = plainToInstance(RegisterRequest, body ?? {}) as RegisterRequest;
    await validateCommand(request);
    const playerId = request.playerId ?? randomUUID();
    const playerType = request.playerType ?? 'HUMAN';
    const principal: PlayerPrincipal = { id: playerId, playerType };
    // A taken id is refused by the aggregate (FAILED_PRECONDITION) before any token exists.
    const register = Object.assign(new RegisterPlayer(), { playerId, displayName: request.displayName, email: request.email ?? `${playerId}@poker.example`, playerType });
    await this.gateway.send(register, { principal, authorize: false });
    await this.gateway.send(Object.assign(new DepositFunds(), { playerId, amount: STARTING_BANKROLL }), { principal, authorize: false, syncMode: SyncMode.SIMPLE });
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
