import { Inject, Module, type INestApplicationContext, type OnModuleInit } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { DataSource, EntityManager } from 'typeorm';
import { CommandGateway, EventSourcingModule, OnEvent, Projector, type ProjectionContext } from '@nest-es/core';
import { portableQuery, READ_MODEL_DATA_SOURCE, type StoreOptions, typeorm } from '@nest-es/typeorm';
import { AccountAggregate, Deposit, Deposited } from './bench-aggregates.js';
import { bootBenchApp } from './bench-app.js';
import { distribution, type Distribution } from './stats.js';

/* ASYNC commands beside a slow projector: a projector whose handler takes 500 ms inside its
   transaction must not hold up the commands (on SQLite the store's file has one writer). */

export const SLOW_PROJECTOR_MS = 500;

/** Writes its row, then takes SLOW_PROJECTOR_MS before its transaction commits; one event per batch. */
@Projector('bench-slow-view', { batchSize: 1 })
export class SlowViewProjector implements OnModuleInit {
  /** Handlers inside their transaction right now. */
  open = 0;

  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await this.dataSource.query('CREATE TABLE IF NOT EXISTS bench_slow_view (id TEXT PRIMARY KEY, events INTEGER NOT NULL)');
  }

  @OnEvent(Deposited)
  async onDeposited(_event: Deposited, { envelope, tx }: ProjectionContext<EntityManager>): Promise<void> {
    this.open++;
    try {
      await portableQuery(tx, 'INSERT INTO bench_slow_view (id, events) VALUES ($1, 1) ON CONFLICT (id) DO UPDATE SET events = bench_slow_view.events + 1', [
        envelope.aggregateId,
      ]);
      await new Promise((resolve) => setTimeout(resolve, SLOW_PROJECTOR_MS));
    } finally {
      this.open--;
    }
  }
}

export interface SlowProjectorFigures extends Distribution {
  projectorMs: number;
  /** Sends that started and returned while the projector's handler was inside its transaction. */
  duringTransaction: number;
  /** The same sends on the same store just before, without the projector: what the machine gives now. */
  baseline: Distribution;
}

@Module({ providers: [AccountAggregate, SlowViewProjector] })
class SlowProjectorBenchModule {}

/** One caller sending ASYNC deposits to 100 accounts for `durationMs`: each send's latency. */
async function sendFor(gateway: CommandGateway, durationMs: number, each: (durationMs: number) => void): Promise<void> {
  const end = performance.now() + durationMs;
  for (let i = 0; performance.now() < end; i++) {
    const started = performance.now();
    await gateway.send(new Deposit(`slow-${i % 100}`, 1));
    each(performance.now() - started);
  }
}

/**
 * One caller sends ASYNC deposits for `durationMs` without the projector (the baseline), then as
 * long again once the projector is inside its first transaction; every event gives it
 * SLOW_PROJECTOR_MS more work, so it stays busy throughout. Latency is from `send()` to its
 * result, over every send.
 */
export async function measureSlowProjector(store: StoreOptions, durationMs: number): Promise<SlowProjectorFigures> {
  const plain = await bootBenchApp(store);
  const baselineMs: number[] = [];
  try {
    await sendFor(plain.get(CommandGateway), durationMs, (ms) => baselineMs.push(ms));
  } finally {
    await plain.close();
  }
  const app: INestApplicationContext = await NestFactory.createApplicationContext(
    { module: SlowProjectorBenchModule, imports: [EventSourcingModule.forRoot({ adapter: typeorm(store) })] },
    { logger: ['error', 'warn'] },
  );
  try {
    const gateway = app.get(CommandGateway);
    const projector = app.get(SlowViewProjector);
    await gateway.send(new Deposit('slow-0', 1));
    const busy = performance.now() + 30_000;
    while (projector.open === 0) {
      if (performance.now() > busy) throw new Error('the slow projector did not start within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const durations: number[] = [];
    let duringTransaction = 0;
    let openAtStart = projector.open > 0;
    await sendFor(gateway, durationMs, (ms) => {
      durations.push(ms);
      if (openAtStart && projector.open > 0) duringTransaction++;
      openAtStart = projector.open > 0;
    });
    return { ...distribution(durations), projectorMs: SLOW_PROJECTOR_MS, duringTransaction, baseline: distribution(baselineMs) };
  } finally {
    await app.close();
  }
}
