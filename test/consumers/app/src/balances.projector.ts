import { Inject, type OnModuleInit } from '@nestjs/common';
import { READ_MODEL_DATA_SOURCE } from '@nest-es/typeorm';
import { OnEvent, Projector, type StoredEvent } from '@nest-es/core';
import type { DataSource, EntityManager } from 'typeorm';
import { AccountOpened, Deposited } from './account.aggregate.js';

/** A read model in the store's SQLite database, changed in the same transaction as the checkpoint. */
@Projector('balances')
export class BalancesProjector implements OnModuleInit {
  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async onModuleInit() {
    await this.dataSource.query('CREATE TABLE IF NOT EXISTS balances (account_id TEXT PRIMARY KEY, owner TEXT NOT NULL, balance INTEGER NOT NULL)');
  }

  @OnEvent(AccountOpened)
  async onOpened(event: AccountOpened, envelope: StoredEvent, manager: EntityManager) {
    await manager.query('INSERT INTO balances (account_id, owner, balance) VALUES (?, ?, 0)', [envelope.aggregateId, event.owner]);
  }

  @OnEvent(Deposited)
  async onDeposited(event: Deposited, envelope: StoredEvent, manager: EntityManager) {
    await manager.query('UPDATE balances SET balance = ? WHERE account_id = ?', [event.balance, envelope.aggregateId]);
  }
}
