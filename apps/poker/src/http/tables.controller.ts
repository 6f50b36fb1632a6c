import { Controller, Get, Headers, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PlayerTokens } from '../auth/player-tokens.service.js';
import { type TableView, TableViewQuery } from '../read-models/index.js';
import { TableViewDto } from './read-model.dto.js';
import { ValidIdPipe } from './valid-id.pipe.js';

@ApiTags('poker')
@Controller('tables')
export class TablesController {
  constructor(
    private readonly tables: TableViewQuery,
    private readonly tokens: PlayerTokens,
  ) {}

  @Get(':tableId')
  @ApiOperation({ summary: "A table's seats and stacks and the public state of its current (or last) hand" })
  @ApiBearerAuth()
  @ApiOkResponse({ type: TableViewDto, description: "Signed in, the player's own hole cards come as yourCards; anyone sees the rest" })
  async table(@Param('tableId', ValidIdPipe) tableId: string, @Headers('authorization') authorization?: string): Promise<TableView> {
    const viewer = await this.tokens.principal(authorization);
    return this.tables.table(tableId, viewer?.id);
  }
}
