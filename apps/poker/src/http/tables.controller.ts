import { Controller, Get, Headers, Param, Sse } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { LiveQueries, type LiveMessage } from '@nest-es/core';
import type { Observable } from 'rxjs';
import { PlayerTokens } from '../auth/player-tokens.service.js';
import { BalancesQuery, LeaderboardQuery, type TableView, TableViewQuery } from '../read-models/index.js';
import { TableViewDto } from './read-model.dto.js';
import { LIVE_LEADERBOARD_ROWS, type TableLive, tableLiveTriggers } from './table-live.js';
import { ValidIdPipe } from './valid-id.pipe.js';

@ApiTags('poker')
@Controller('tables')
export class TablesController {
  constructor(
    private readonly tables: TableViewQuery,
    private readonly leaderboard: LeaderboardQuery,
    private readonly balances: BalancesQuery,
    private readonly tokens: PlayerTokens,
    private readonly live: LiveQueries,
  ) {}

  @Get(':tableId')
  @ApiOperation({ summary: "A table's seats and stacks and the public state of its current (or last) hand" })
  @ApiBearerAuth()
  @ApiOkResponse({ type: TableViewDto, description: "Signed in, the player's own hole cards come as yourCards; anyone sees the rest" })
  async table(@Param('tableId', ValidIdPipe) tableId: string, @Headers('authorization') authorization?: string): Promise<TableView> {
    const viewer = await this.tokens.principal(authorization);
    return this.tables.table(tableId, viewer?.id);
  }

  /** What the page shows, pushed when it changes: the same reads as the routes above, as the same reader. */
  @Sse(':tableId/live')
  @ApiOperation({
    summary: 'The table view, the leaderboard and (signed in) your balance, as server-sent events: sent at once, then each time they change',
    description:
      'Each `update` event holds {table, leaderboard, balance} as JSON (the table as GET /tables/{tableId} answers it for the same reader); a `heartbeat` event comes every 15 s. On a reconnect the current state comes first.',
  })
  @ApiBearerAuth()
  @ApiProduces('text/event-stream')
  async watch(@Param('tableId', ValidIdPipe) tableId: string, @Headers('authorization') authorization?: string): Promise<Observable<LiveMessage<TableLive>>> {
    const reader = (await this.tokens.principal(authorization))?.id;
    return this.live.watch(tableLiveTriggers(tableId, reader), async () => ({
      table: await this.tables.table(tableId, reader),
      leaderboard: await this.leaderboard.page(LIVE_LEADERBOARD_ROWS, 0, reader),
      balance: reader ? await this.balances.balance(reader) : null,
    }));
  }
}
