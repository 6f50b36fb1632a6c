import 'reflect-metadata';
import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { DataSource, EntityManager } from 'typeorm';
import { CommandGateway, EventSourcingError, EventSourcingModule, OnEvent, Projector, type ProjectionContext } from '@nest-es/core';
import { READ_MODEL_DATA_SOURCE, portableQuery, typeorm } from '@nest-es/typeorm';
import { NatsJetStreamModule } from '@nest-es/nats';
import { EventNotifier, EventProcessor } from '@nest-es/core/internal';
import { AccountAggregate, Deposit, Deposited } from './bench-aggregates.js';
import { measureAtRate } from './command.bench.js';
import { SCALE_OUT_VIEW, type InstanceOptions } from './scale-out-options.js';
import { epochMs } from './stats.js';

/*
 * One instance of the scale-out figures (forked by instance-process.ts, its options as the argument):
 * the bench account aggregate and a partitioned projector writing a read model, on a shared PostgreSQL
 * schema, optionally with the JetStream publisher. It answers the parent's calls over IPC.
 */

/** Balances by account in a table of the store's database, committed with the partition's checkpoint. */
@Projector(SCALE_OUT_VIEW)
class ScaleOutProjector implements OnModuleInit {
  /** When each deposit was projected (epoch ms), by event id. */
  readonly projectedAt = new Map<string, number>();

  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await this.dataSource.query('CREATE TABLE IF NOT EXISTS bench_scale_view (id TEXT PRIMARY KEY, balance INTEGER NOT NULL)');
  }

  @OnEvent(Deposited)
  async onDeposited(event: Deposited, { envelope, tx }: ProjectionContext<EntityManager>): Promise<void> {
    await portableQuery(tx, 'INSERT INTO bench_scale_view (id, balance) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET balance = bench_scale_view.balance + $2', [
      envelope.aggregateId,
      event.amount,
    ]);
    this.projectedAt.set(envelope.metadata.eventId, epochMs());
  }
}

const options = JSON.parse(process.argv[2]) as InstanceOptions;
const { partitions, rebalanceIntervalMs, pollIntervalMs, publisher } = options;
const scaleOut = { partitions, ...(rebalanceIntervalMs ? { rebalanceIntervalMs } : {}) };
const processing = partitions > 0 ? { scaleOut, ...(pollIntervalMs ? { pollIntervalMs } : {}) } : { enabled: false };

@Module({ providers: [AccountAggregate, ...(partitions > 0 ? [ScaleOutProjector] : [])] })
class InstanceModule {}

const app = await NestFactory.createApplicationContext(
  {
    module: InstanceModule,
    imports: [
      EventSourcingModule.forRoot({ adapter: typeorm(options.store), processing }),
      ...(publisher ? [NatsJetStreamModule.forRoot({ servers: publisher.servers, publisher: { stream: publisher.stream, subjectPrefix: publisher.subjectPrefix } })] : []),
    ],
  },
  { logger: ['error', 'warn'] },
);
const gateway = app.get(CommandGateway);
/** When each deposit this instance sent was committed (epoch ms): the store's append returned. */
const appendedAt = new Map<string, number>();
app.get(EventNotifier).onAppend((events) => {
  const now = epochMs();
  for (const event of events) if (event.type === 'Deposited') appendedAt.set(event.metadata.eventId, now);
});

/** Callers sending deposits to a few accounts shared with other instances: how many were refused, by code. */
async function contend(callers: number, durationMs: number, accounts: string[]): Promise<{ sent: number; refused: Record<string, number> }> {
  let sent = 0;
  const refused: Record<string, number> = {};
  const end = performance.now() + durationMs;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < end) {
        sent++;
        try {
          await gateway.send(new Deposit(accounts[Math.floor(Math.random() * accounts.length)], 1));
        } catch (error) {
          if (!(error instanceof EventSourcingError)) throw error;
          refused[error.code] = (refused[error.code] ?? 0) + 1;
        }
      }
    }),
  );
  return { sent, refused };
}

const calls: Record<string, (args: never) => unknown> = {
  running: () => app.get(EventProcessor).runningPartitions(),
  projectedAt: (ids: string[]) => {
    const times = app.get(ScaleOutProjector).projectedAt;
    return ids.map((id) => times.get(id) ?? null);
  },
  appendedAt: () => [...appendedAt],
  /** Forgets the deposits sent so far (the lag figure's warm-up). */
  forgetAppended: () => void appendedAt.clear(),
  atRate: ({ ratePerSec, durationMs, accounts }: { ratePerSec: number; durationMs: number; accounts: number }) => measureAtRate(app, ratePerSec, durationMs, accounts),
  /** One deposit to each account at once; their event ids. */
  deposit: async (accounts: string[]) => Promise.all(accounts.map(async (id) => (await gateway.send(new Deposit(id, 1))).events[0].metadata.eventId)),
  contend: ({ callers, durationMs, accounts }: { callers: number; durationMs: number; accounts: string[] }) => contend(callers, durationMs, accounts),
  close: async () => {
    await app.close();
    setImmediate(() => process.exit(0));
  },
};

process.on('message', async ({ id, call, args }: { id: number; call: string; args: never }) => {
  try {
    process.send!({ id, result: await calls[call](args) });
  } catch (error) {
    process.send!({ id, error: (error as Error).stack ?? String(error) });
  }
});
process.send!('ready');
