import { Controller, Get, Param, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PermissionDeniedError } from '@nest-es/core';
import { PlayerAuthGuard } from '../auth/player-auth.guard.js';
import type { PlayerPrincipal } from '../auth/player-tokens.service.js';
import { type Balance, BalancesQuery } from '../read-models/index.js';
import { BalanceDto } from './read-model.dto.js';
import { ValidIdPipe } from './valid-id.pipe.js';

@ApiTags('poker')
@Controller('players')
export class BalancesController {
  constructor(private readonly balances: BalancesQuery) {}

  @Get(':playerId/balance')
  @ApiOperation({ summary: "The signed-in player's bankroll, reserved and available chips (current once a command sent with Sync-Mode: simple returns)" })
  @ApiOkResponse({ type: BalanceDto })
  @ApiBearerAuth()
  @UseGuards(PlayerAuthGuard)
  balance(@Param('playerId', ValidIdPipe) playerId: string, @Req() { user }: { user: PlayerPrincipal }): Promise<Balance> {
    if (playerId !== user.id) throw new PermissionDeniedError(`${user.id} may not read the balance of ${playerId}`);
    return this.balances.balance(playerId);
  }
}
