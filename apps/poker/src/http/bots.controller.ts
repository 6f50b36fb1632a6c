import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BotPlayer, type BotMoveMade } from '../bots/bot-player.js';
import { BotMoveDto } from './read-model.dto.js';

@ApiTags('poker')
@Controller('tables')
export class BotsController {
  constructor(private readonly bots: BotPlayer) {}

  @Post(':tableId/bots/act')
  @HttpCode(200)
  @ApiOperation({ summary: 'The AI players (playerType AI) of the running hand make their moves: the one to act, or all still to draw' })
  @ApiOkResponse({ type: [BotMoveDto] })
  act(@Param('tableId') tableId: string): Promise<BotMoveMade[]> {
    return this.bots.act(tableId);
  }
}
