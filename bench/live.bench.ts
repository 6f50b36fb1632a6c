import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Controller, Inject, Module, Param, Sse, type INestApplication, type OnModuleInit } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandGateway, EventSourcingModule, LiveQueries, OnEvent, Projector, type ProjectionContext } from '@nest-es/core';
import { READ_MODEL_DATA_SOURCE, portableQuery, type StoreOptions, typeorm } from '@nest-es/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { AccountAggregate, Deposit, Deposited } from './bench-aggregates.js';
import { collectGarbage } from './gc.js';
import { distribution, round, type Distribution } from './stats.js';

/* Live queries over HTTP (server-sent events): from a command's commit to the update at a client,
   one client at a time; then many open clients on one process, the memory each costs and the time
   until one change has reached all of them. The clients run in the bench's process too, so the
   memory per client counts both ends of the connection: an upper bound for the server alone. */

@Projector('bench-live-balances')
class LiveBalancesProjector implements OnModuleInit {
  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await this.dataSource.query('CREATE TABLE IF NOT EXISTS bench_live_balances (account_id VARCHAR(64) PRIMARY KEY, balance BIGINT NOT NULL)');
  }

  @OnEvent(Deposited)
  async onDeposited(event: Deposited, ctx: ProjectionContext<EntityManager>): Promise<void> {
    const id = ctx.envelope.aggregateId;
    await portableQuery(ctx.tx, 'INSERT INTO bench_live_balances (account_id, balance) VALUES ($1, $2) ON CONFLICT (account_id) DO UPDATE SET balance = bench_live_balances.balance + $2', [id, event.amount]);
    ctx.changed(id);
  }
}

@Controller('live')
class LiveBalanceController {
  constructor(
    private readonly live: LiveQueries,
    @Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource,
  ) {}

  @Sse(':accountId')
  watch(@Param('accountId') accountId: string) {
    return this.live.watch({ projector: 'bench-live-balances', key: accountId }, async () => {
      const [row] = await portableQuery<{ balance: string | number }>(this.dataSource, 'SELECT balance FROM bench_live_balances WHERE account_id = $1', [accountId]);
      return { balance: row ? Number(row.balance) : 0 };
    });
  }
}

export interface LiveFigures {
  /** A command's commit (its send resolved) to the update carrying it at the one client watching. */
  commitToClient: Distribution;
  subscribers: number;
  /** JavaScript heap per open live query, both ends of its connection counted (resident memory is too noisy to split per subscriber). */
  heapKbPerSubscriber: number;
  /** One change watched by every open subscriber: the commit to the last of them getting it. */
  fanOutMs: number;
  /** PostgreSQL: the projector on one instance, the client on another. */
  acrossInstances?: Distribution;
}

/** One SSE client: resolves each `until(balance)` when an update with that balance arrives. */
function clientOf(port: number, accountId: string): Promise<{ until: (balance: number) => Promise<void>; close: () => void }> {
  return new Promise((resolve, reject) => {
    const waiters = new Map<number, () => void>();
    let buffer = '';
    const request = http.get({ host: '127.0.0.1', port, path: `/live/${accountId}`, agent: false }, (response) => {
      response.setEncoding('utf8');
      let first = true;
      response.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const data = buffer.slice(0, end).split('\n').find((line) => line.startsWith('data:'));
          buffer = buffer.slice(end + 2);
          if (!data) continue;
          const balance = (JSON.parse(data.slice(5)) as { balance?: number }).balance;
          if (balance !== undefined) waiters.get(balance)?.();
          if (first) {
            first = false;
            resolve({
              until: (expected) => new Promise<void>((done) => waiters.set(expected, done)),
              close: () => request.destroy(),
            });
          }
        }
      });
    });
    request.on('error', reject);
  });
}

async function boot(store: StoreOptions, processing = true): Promise<{ app: INestApplication; port: number }> {
  @Module({
    imports: [EventSourcingModule.forRoot({ adapter: typeorm(store), processing: { enabled: processing }, live: { maxWatchers: 10_000 } })],
    controllers: [LiveBalanceController],
    providers: [AccountAggregate, LiveBalancesProjector],
  })
  class LiveBenchModule {}
  const app = await NestFactory.create(LiveBenchModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  return { app, port: (app.getHttpServer().address() as AddressInfo).port };
}

/** `samples` commits, one after another, each timed from its commit until `seen(i)` resolves. */
async function commitToClient(gateway: CommandGateway, watching: { until: (balance: number) => Promise<void> }, account: string, samples: number): Promise<Distribution> {
  const durations: number[] = [];
  for (let i = 1; i <= samples; i++) {
    const seen = watching.until(i);
    await gateway.send(new Deposit(account, 1));
    const committed = performance.now();
    await seen;
    durations.push(performance.now() - committed);
  }
  return distribution(durations);
}

/**
 * Two instances on one PostgreSQL store: the projector runs on one, the client watches on the other;
 * the change reaches it through the other instance's checkpoint wake-up.
 */
export async function measureLiveAcross(store: StoreOptions, samples: number): Promise<Distribution> {
  const projecting = await boot(store, true);
  const watching = await boot(store, false);
  try {
    const client = await clientOf(watching.port, 'across');
    const figures = await commitToClient(projecting.app.get(CommandGateway), client, 'across', samples);
    client.close();
    return figures;
  } finally {
    await watching.app.close();
    await projecting.app.close();
  }
}

/** `samples` commits seen by one client, then `subscribers` clients open at once and one change reaching all. */
export async function measureLive(store: StoreOptions, samples: number, subscribers: number): Promise<LiveFigures> {
  const { app, port } = await boot(store);
  try {
    const gateway = app.get(CommandGateway);
    const one = await clientOf(port, 'solo');
    const solo = await commitToClient(gateway, one, 'solo', samples);
    one.close();

    collectGarbage();
    const before = process.memoryUsage();
    const many = await Promise.all(Array.from({ length: subscribers }, () => clientOf(port, 'crowd')));
    collectGarbage();
    const after = process.memoryUsage();
    const reached = Promise.all(many.map((each) => each.until(1)));
    await gateway.send(new Deposit('crowd', 1));
    const committed = performance.now();
    await reached;
    const fanOutMs = performance.now() - committed;
    many.forEach((each) => each.close());
    return {
      commitToClient: solo,
      subscribers,
      heapKbPerSubscriber: round((after.heapUsed - before.heapUsed) / 1024 / subscribers),
      fanOutMs: round(fanOutMs),
    };
  } finally {
    await app.close();
  }
}
