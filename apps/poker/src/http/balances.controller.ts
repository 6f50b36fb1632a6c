import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Balance, BalancesQuery } from '../read-models/index.js';
import { BalanceDto } from './read-model.dto.js';

@ApiTags('poker')
@Controller('players')
export class BalancesController {
  constructor(private readonly balances: BalancesQuery) {}

  @Get(':playerId/balance')
  @ApiOperation({ summary: "A player's bankroll, reserved and available chips (current once a command sent with Sync-Mode: simple returns)" })
  @ApiOkResponse({ type: BalanceDto })
  balance(@Param('playerId') playerId: string): Promise<Balance> {
    return this.balances.balance(playerId);
  }
}
