import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { DataSource, EntityManager } from 'typeorm';
import { CommandGateway, EventSourcingModule, OnEvent, Projector, SyncMode, type ProjectionContext } from '@nest-es/core';
import { READ_MODEL_DATA_SOURCE, portableQuery, type StoreOptions, typeorm } from '@nest-es/typeorm';
import { AccountAggregate, Deposit, Deposited } from './bench-aggregates.js';
import { type Poisoned, whilePoisoned } from './while-poisoned.js';
import { distribution, timeEach, type Distribution } from './stats.js';

/* Poison isolation: SIMPLE deposits of one caller on healthy accounts while a projector keeps
   failing on another account's events (each retried with the default backoff, 5 attempts, about
   1.7 s, then dead-lettered), against the same deposits without a poison. */

const POISONED = 'poisoned';

/** Balances in the same database; every event of the poisoned account fails. */
@Projector('bench-balances')
export class PoisonedBalancesProjector implements OnModuleInit {
  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await this.dataSource.query('CREATE TABLE IF NOT EXISTS bench_balances (id TEXT PRIMARY KEY, balance BIGINT NOT NULL)');
  }

  @OnEvent(Deposited)
  async onDeposited(event: Deposited, { envelope, tx }: ProjectionContext<EntityManager>): Promise<void> {
    if (envelope.aggregateId === POISONED) throw new Error('the balance does not fit the column');
    await portableQuery(tx, 'INSERT INTO bench_balances (id, balance) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET balance = bench_balances.balance + excluded.balance', [
      envelope.aggregateId,
      event.amount,
    ]);
  }
}

export interface PoisonFigures extends Omit<Poisoned<Distribution>, 'measured'> {
  /** SIMPLE deposits on healthy accounts, no poison. */
  healthy: Distribution;
  /** The same while the poisoned account's events are being retried. */
  poisoned: Distribution;
}

@Module({ providers: [AccountAggregate, PoisonedBalancesProjector] })
class PoisonBenchModule {}

/** `samples` SIMPLE deposits without a poison, then `samples` more while poison events keep arriving. */
export async function measurePoison(store: StoreOptions, samples: number): Promise<PoisonFigures> {
  const app = await NestFactory.createApplicationContext(
    { module: PoisonBenchModule, imports: [EventSourcingModule.forRoot({ adapter: typeorm(store), syncTimeoutMs: 30_000 })] },
    { logger: false },
  );
  try {
    const gateway = app.get(CommandGateway);
    const simple = (prefix: string) => (i: number) => gateway.send(new Deposit(`${prefix}-${i % 100}`, 1), { syncMode: SyncMode.SIMPLE });
    await timeEach(50, simple('warm'));
    const healthy = distribution(await timeEach(samples, simple('healthy')));

    const { measured: poisoned, ...poison } = await whilePoisoned(app, () => gateway.send(new Deposit(POISONED, 1)), async () => distribution(await timeEach(samples, simple('other'))));
    return { healthy, poisoned, ...poison };
  } finally {
    await app.close();
  }
}
