import { Inject, Module, type INestApplicationContext, type OnModuleInit } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsString } from 'class-validator';
import type { DataSource, EntityManager } from 'typeorm';
import { Aggregate, AggregateId, Apply, CommandGateway, CommandHandler, EventSourcingModule, OnEvent, Projector, Saga, SyncMode, type ProjectionContext, type SagaContext } from '@nest-es/core';
import { READ_MODEL_DATA_SOURCE, portableQuery, type StoreOptions, typeorm } from '@nest-es/typeorm';
import { AccountAggregate, Deposit, Deposited } from './bench-aggregates.js';
import { distribution, round, timeEach } from './stats.js';
import { EventNotifier } from '@nest-es/core/internal';

/* Projection figures: how long an ASYNC command's event takes to reach a projector, and what
   SIMPLE and CASCADE cost over ASYNC (each saga hop a CASCADE waits for adds its own latency). */

export class Ping {
  @AggregateId() @IsString() pingId: string;
  constructor(pingId: string) {
    this.pingId = pingId;
  }
}
export class Pinged {}
export class Pong {
  @AggregateId() @IsString() pongId: string;
  constructor(pongId: string) {
    this.pongId = pongId;
  }
}
export class Ponged {}

@Aggregate('bench-ping')
export class PingAggregate {
  initialState() {
    return {};
  }
  @CommandHandler(Ping, { emits: [Pinged] })
  ping() {
    return new Pinged();
  }
  @Apply(Pinged)
  onPinged() {}
}

@Aggregate('bench-pong')
export class PongAggregate {
  initialState() {
    return {};
  }
  @CommandHandler(Pong, { emits: [Ponged] })
  pong() {
    return new Ponged();
  }
  @Apply(Ponged)
  onPonged() {}
}

/** One hop for CASCADE: every ping is answered by a pong on another aggregate. */
@Saga('bench-ping-pong')
export class PingPongSaga {
  @OnEvent(Pinged)
  onPinged(_event: Pinged, { envelope }: SagaContext) {
    return new Pong(envelope.aggregateId);
  }
}

/** A read model in the same database; notes when each deposit reached it. */
@Projector('bench-view')
export class BenchViewProjector implements OnModuleInit {
  readonly projectedAt = new Map<string, number>();

  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await this.dataSource.query('CREATE TABLE IF NOT EXISTS bench_view (id TEXT PRIMARY KEY, events INTEGER NOT NULL)');
  }

  @OnEvent(Deposited, Pinged, Ponged)
  async onEvent(_event: unknown, { envelope, tx }: ProjectionContext<EntityManager>): Promise<void> {
    await portableQuery(tx, 'INSERT INTO bench_view (id, events) VALUES ($1, 1) ON CONFLICT (id) DO UPDATE SET events = bench_view.events + 1', [
      `${envelope.aggregateType}/${envelope.aggregateId}`,
    ]);
    if (envelope.type === 'Deposited') this.projectedAt.set(envelope.metadata.eventId, performance.now());
  }
}

export interface ProjectionFigures {
  lagP50Ms: number;
  lagP99Ms: number;
  lagSamples: number;
  asyncP50Ms: number;
  simpleP50Ms: number;
  cascadeP50Ms: number;
  /** SIMPLE and CASCADE latency over ASYNC, at p50. */
  simpleCostMs: number;
  cascadeCostMs: number;
}

@Module({ providers: [AccountAggregate, PingAggregate, PongAggregate, PingPongSaga, BenchViewProjector] })
class ProjectionBenchModule {}

function bootProjectionApp(store: StoreOptions): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(
    { module: ProjectionBenchModule, imports: [EventSourcingModule.forRoot({ adapter: typeorm(store), syncTimeoutMs: 30_000 })] },
    { logger: ['error', 'warn'] },
  );
}

/**
 * Lag: 16 callers send ASYNC deposits for `durationMs`; lag is from the moment the append committed
 * to the moment the projector handled the event (inside its transaction; the batch commits right after). Sync costs: one caller,
 * `samples` pings in each mode.
 */
export async function measureProjection(store: StoreOptions, durationMs: number, samples: number): Promise<ProjectionFigures> {
  const app = await bootProjectionApp(store);
  try {
    const gateway = app.get(CommandGateway);
    const projector = app.get(BenchViewProjector);
    // The moment each deposit was committed: the store's append returned (the in-process signal fires then).
    const storedAt = new Map<string, number>();
    const stopListening = app.get(EventNotifier).onAppend((events) => {
      const now = performance.now();
      for (const event of events) if (event.type === 'Deposited') storedAt.set(event.metadata.eventId, now);
    });
    const end = performance.now() + durationMs;
    await Promise.all(
      Array.from({ length: 16 }, async (_, caller) => {
        for (let i = 0; performance.now() < end; i++) await gateway.send(new Deposit(`lag-${caller}-${i % 50}`, 1));
      }),
    );
    stopListening();
    const deadline = performance.now() + 30_000;
    while (projector.projectedAt.size < storedAt.size && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    // A deposit never projected counts as lagging until the deadline.
    const lags = [...storedAt].map(([eventId, stored]) => (projector.projectedAt.get(eventId) ?? deadline) - stored);
    const lag = distribution(lags);

    const mode = async (syncMode: SyncMode) =>
      distribution(await timeEach(samples, (i) => gateway.send(new Ping(`${syncMode}-${i}`), { syncMode }))).p50Ms;
    await mode(SyncMode.CASCADE);
    const asyncP50Ms = await mode(SyncMode.ASYNC);
    const simpleP50Ms = await mode(SyncMode.SIMPLE);
    const cascadeP50Ms = await mode(SyncMode.CASCADE);
    return {
      lagP50Ms: lag.p50Ms,
      lagP99Ms: lag.p99Ms,
      lagSamples: lag.samples,
      asyncP50Ms,
      simpleP50Ms,
      cascadeP50Ms,
      simpleCostMs: round(simpleP50Ms - asyncP50Ms),
      cascadeCostMs: round(cascadeP50Ms - asyncP50Ms),
    };
  } finally {
    await app.close();
  }
}
