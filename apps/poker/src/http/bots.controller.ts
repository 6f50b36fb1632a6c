import { Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PlayerAuthGuard } from '../auth/player-auth.guard.js';
import { BotPlayer, type BotMoveMade } from '../bots/bot-player.js';
import { BotMoveDto } from './read-model.dto.js';
import { ValidIdPipe } from './valid-id.pipe.js';

@ApiTags('poker')
@Controller('tables')
export class BotsController {
  constructor(private readonly bots: BotPlayer) {}

  @Post(':tableId/bots/act')
  @HttpCode(200)
  @ApiOperation({ summary: 'The AI players (playerType AI) of the running hand make their moves, each as itself: the one to act, or all still to draw (any signed-in player may ask)' })
  @ApiOkResponse({ type: [BotMoveDto] })
  @ApiBearerAuth()
  @UseGuards(PlayerAuthGuard)
  act(@Param('tableId', ValidIdPipe) tableId: string): Promise<BotMoveMade[]> {
    return this.bots.act(tableId);
  }
}
