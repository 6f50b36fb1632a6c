import { Inject, type OnModuleInit } from '@nestjs/common';
import { READ_MODEL_DATA_SOURCE, portableQuery } from '@nest-es/typeorm';
import { OnEvent, Projector, type ProjectionContext } from '@nest-es/core';
import type { DataSource, EntityManager } from 'typeorm';
import { FundsDeposited, FundsReleased, FundsReserved, FundsWithdrawn, PlayerRegistered, SessionSettled } from '../player/index.js';
import { createTables } from './sql.js';

/** The projection's transaction is TypeORM's EntityManager: it also moves the checkpoint. */
type Ctx = ProjectionContext<EntityManager>;

/** Balances: each player's bankroll, what is reserved at tables, and what is available. */
@Projector('balances')
export class BalancesProjector implements OnModuleInit {
  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** BIGINT: a bankroll may reach MAX_BANKROLL, beyond PostgreSQL's 32-bit INTEGER. */
  async onModuleInit(): Promise<void> {
    await createTables(this.dataSource, [
      `CREATE TABLE IF NOT EXISTS poker_balances (
        player_id TEXT PRIMARY KEY, bankroll BIGINT NOT NULL, reserved BIGINT NOT NULL, available BIGINT NOT NULL)`,
    ]);
  }

  @OnEvent(PlayerRegistered)
  async onRegistered(_event: PlayerRegistered, { envelope, tx: manager, changed }: Ctx): Promise<void> {
    changed(envelope.aggregateId);
    await portableQuery(manager, 'INSERT INTO poker_balances (player_id, bankroll, reserved, available) VALUES ($1, 0, 0, 0) ON CONFLICT (player_id) DO NOTHING', [
      envelope.aggregateId,
    ]);
  }

  @OnEvent(FundsDeposited, FundsWithdrawn)
  onBankroll(event: FundsDeposited | FundsWithdrawn, ctx: Ctx): Promise<void> {
    return change(ctx, event.newBalance, 0);
  }

  @OnEvent(FundsReserved)
  onReserved(event: FundsReserved, ctx: Ctx): Promise<void> {
    return change(ctx, null, event.amount);
  }

  @OnEvent(FundsReleased)
  onReleased(event: FundsReleased, ctx: Ctx): Promise<void> {
    return change(ctx, null, -event.amount);
  }

  @OnEvent(SessionSettled)
  onSettled(event: SessionSettled, ctx: Ctx): Promise<void> {
    return change(ctx, event.newBalance, -event.reserved);
  }

  async reset(manager: EntityManager): Promise<void> {
    await portableQuery(manager, 'DELETE FROM poker_balances');
  }
}

/** The player's new bankroll (null: unchanged) and a change of the reserved chips; available follows. */
async function change({ envelope, tx: manager, changed }: Ctx, bankroll: number | null, reservedChange: number): Promise<void> {
  changed(envelope.aggregateId);
  await portableQuery(
    manager,
    `UPDATE poker_balances SET bankroll = COALESCE($1, bankroll), reserved = reserved + $2, available = COALESCE($1, bankroll) - (reserved + $2)
     WHERE player_id = $3`,
    [bankroll, reservedChange, envelope.aggregateId],
  );
}
