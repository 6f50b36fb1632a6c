import { Inject, type OnModuleInit } from '@nestjs/common';
import { OnEvent, Projector, type ProjectionContext } from '@nest-es/core';
import { READ_MODEL_DATA_SOURCE, portableQuery } from '@nest-es/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { AccountOpened, Deposited } from './account.aggregate.js';

/** A read model in the read-model database, changed in the same transaction as the checkpoint. */
@Projector('balances')
export class BalancesProjector implements OnModuleInit {
  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async onModuleInit() {
    await this.dataSource.query('CREATE TABLE IF NOT EXISTS balances (account_id TEXT PRIMARY KEY, owner TEXT NOT NULL, balance INTEGER NOT NULL)');
  }

  @OnEvent(AccountOpened)
  async onOpened(event: AccountOpened, { envelope, tx }: ProjectionContext<EntityManager>) {
    await portableQuery(tx, 'INSERT INTO balances (account_id, owner, balance) VALUES ($1, $2, 0)', [envelope.aggregateId, event.owner]);
  }

  @OnEvent(Deposited)
  async onDeposited(event: Deposited, { envelope, tx }: ProjectionContext<EntityManager>) {
    await portableQuery(tx, 'UPDATE balances SET balance = $1 WHERE account_id = $2', [event.balance, envelope.aggregateId]);
  }
}
