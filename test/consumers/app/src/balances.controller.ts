import { Controller, Get, Inject, NotFoundException, Param } from '@nestjs/common';
import { READ_MODEL_DATA_SOURCE, portableQuery } from '@nest-es/typeorm';
import type { DataSource } from 'typeorm';

/** The application's own route beside the library's: reads the projection. */
@Controller('balances')
export class BalancesController {
  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  @Get(':accountId')
  async balance(@Param('accountId') accountId: string) {
    const rows = await portableQuery<{ owner: string; balance: number }>(this.dataSource, 'SELECT owner, balance FROM balances WHERE account_id = $1', [accountId]);
    if (rows.length === 0) throw new NotFoundException(`no balance for account ${accountId}`);
    return rows[0];
  }
}
