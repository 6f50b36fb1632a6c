import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { type TableView, TableViewQuery } from '../read-models/index.js';
import { TableViewDto } from './read-model.dto.js';

@ApiTags('poker')
@Controller('tables')
export class TablesController {
  constructor(private readonly tables: TableViewQuery) {}

  @Get(':tableId')
  @ApiOperation({ summary: "A table's seats and stacks and the public state of its current (or last) hand" })
  @ApiQuery({ name: 'viewer', required: false, description: "A player id: adds that player's own hole cards as yourCards" })
  @ApiOkResponse({ type: TableViewDto })
  table(@Param('tableId') tableId: string, @Query('viewer') viewer?: string): Promise<TableView> {
    return this.tables.table(tableId, viewer);
  }
}
