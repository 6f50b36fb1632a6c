import { Controller, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PlayerAuthGuard } from '../auth/player-auth.guard.js';
import type { PlayerPrincipal } from '../auth/player-tokens.service.js';
import { BotPlayer, type BotMoveMade } from '../bots/bot-player.js';
import { BotMoveDto } from './read-model.dto.js';
import { ValidIdPipe } from './valid-id.pipe.js';

@ApiTags('poker')
@Controller('tables')
export class BotsController {
  constructor(private readonly bots: BotPlayer) {}

  @Post(':tableId/bots/act')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'The AI player (playerType AI) whose turn it is in the running hand moves now, as itself: to bet, to draw or to show or muck (only a player seated at the table may ask: 403 otherwise)',
  })
  @ApiOkResponse({ type: [BotMoveDto] })
  @ApiBearerAuth()
  @UseGuards(PlayerAuthGuard)
  act(@Param('tableId', ValidIdPipe) tableId: string, @Req() { user }: { user: PlayerPrincipal }): Promise<BotMoveMade[]> {
    return this.bots.act(tableId, user.id);
  }
}
