import { Inject, type OnModuleInit } from '@nestjs/common';
import { READ_MODEL_DATA_SOURCE, portableQuery } from '@nest-es/typeorm';
import { OnEvent, Projector, type ProjectionContext } from '@nest-es/core';
import type { DataSource, EntityManager } from 'typeorm';
import { FundsDeposited, PlayerRegistered } from './player.aggregate.js';

@Projector('balances')
export class BalancesProjector implements OnModuleInit {
  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async onModuleInit() {
    await this.dataSource.query('CREATE TABLE IF NOT EXISTS balances (player_id TEXT PRIMARY KEY, bankroll INTEGER NOT NULL)');
  }

  // The read model changes in the same transaction as the projector's checkpoint: exactly once.
  @OnEvent(PlayerRegistered)
  async onRegistered(event: PlayerRegistered, { envelope, tx }: ProjectionContext<EntityManager>) {
    await portableQuery(tx, 'INSERT INTO balances (player_id, bankroll) VALUES ($1, 0)', [envelope.aggregateId]);
  }

  @OnEvent(FundsDeposited)
  async onDeposited(event: FundsDeposited, { envelope, tx }: ProjectionContext<EntityManager>) {
    await portableQuery(tx, 'UPDATE balances SET bankroll = $1 WHERE player_id = $2', [event.newBalance, envelope.aggregateId]);
  }
}
