import { Inject, type OnModuleInit } from '@nestjs/common';
import { IsInt, IsString } from 'class-validator';
import type { DataSource, EntityManager } from 'typeorm';
import { Aggregate, AggregateId, Apply, CommandHandler, OnEvent, Projector, type ProjectionContext } from '@nest-es/core';
import { READ_MODEL_DATA_SOURCE, portableQuery } from '@nest-es/typeorm';

/** A deposit (negative: a withdrawal) to a player's bankroll. */
export class Deposit {
  @AggregateId() @IsString() playerId: string;
  @IsInt() amount: number;

  constructor(playerId: string, amount: number) {
    this.playerId = playerId;
    this.amount = amount;
  }
}

export class Deposited {
  constructor(
    readonly amount: number,
    readonly bankroll: number,
  ) {}
}

@Aggregate('player')
export class PlayerAggregate {
  initialState(): { bankroll: number } {
    return { bankroll: 0 };
  }

  @CommandHandler(Deposit, { emits: [Deposited] })
  deposit(command: Deposit, state: { bankroll: number }): Deposited {
    return new Deposited(command.amount, state.bankroll + command.amount);
  }

  @Apply(Deposited)
  onDeposited(state: { bankroll: number }, event: Deposited): void {
    state.bankroll = event.bankroll;
  }
}

/** The largest bankroll the balances table takes (a 32-bit column, as in the issue that found this). */
export const MAX_BANKROLL = 2 ** 31 - 1;

/**
 * Balances in the same database. A bankroll over MAX_BANKROLL is refused by the table on both
 * databases, so the event that makes it fails on every attempt: a poison event.
 */
@Projector('balances', { maxAttempts: 7 })
export class BalancesProjector implements OnModuleInit {
  /** Every attempt to project an event, by position, with whether it threw. */
  readonly attempts: Array<{ position: number; playerId: string; failed: boolean }> = [];

  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await this.dataSource.query(
      `CREATE TABLE IF NOT EXISTS balances (player_id TEXT PRIMARY KEY, bankroll BIGINT NOT NULL CHECK (bankroll <= ${MAX_BANKROLL}), deposits INTEGER NOT NULL)`,
    );
  }

  @OnEvent(Deposited)
  async onDeposited(event: Deposited, { envelope, tx }: ProjectionContext<EntityManager>): Promise<void> {
    const attempt = { position: envelope.position, playerId: envelope.aggregateId, failed: true };
    this.attempts.push(attempt);
    await portableQuery(
      tx,
      `INSERT INTO balances (player_id, bankroll, deposits) VALUES ($1, $2, 1)
       ON CONFLICT (player_id) DO UPDATE SET bankroll = excluded.bankroll, deposits = balances.deposits + 1`,
      [envelope.aggregateId, event.bankroll],
    );
    attempt.failed = false;
  }

  async balance(playerId: string): Promise<{ bankroll: number; deposits: number } | undefined> {
    const [row] = (await portableQuery(this.dataSource.manager, 'SELECT bankroll, deposits FROM balances WHERE player_id = $1', [playerId])) as Array<{
      bankroll: string;
      deposits: string;
    }>;
    return row && { bankroll: Number(row.bankroll), deposits: Number(row.deposits) };
  }
}

export const BANKROLL_PROVIDERS = [PlayerAggregate, BalancesProjector];
