import { Inject, Injectable } from '@nestjs/common';
import { READ_MODEL_DATA_SOURCE, portableQuery } from '@nest-es/typeorm';
import { NotFoundError } from '@nest-es/core';
import type { DataSource } from 'typeorm';

export interface Balance {
  playerId: string;
  bankroll: number;
  reserved: number;
  available: number;
}

/** Reads the balances read model. */
@Injectable()
export class BalancesQuery {
  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async balance(playerId: string): Promise<Balance> {
    const [row] = await portableQuery<Balance>(
      this.dataSource,
      'SELECT player_id AS "playerId", bankroll, reserved, available FROM poker_balances WHERE player_id = $1',
      [playerId],
    );
    if (!row) throw new NotFoundError(`player ${playerId} has no balance: not registered`);
    return { playerId: row.playerId, bankroll: Number(row.bankroll), reserved: Number(row.reserved), available: Number(row.available) };
  }
}
