import { randomBytes } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { TypeOrmEventStore } from '@nest-es/typeorm';
import { openDataSource } from '@nest-es/typeorm';
import { seedDeposits } from './catch-up.bench.js';
import type { BenchDatabase } from './databases.js';
import { InstanceProcess } from './instance-process.js';
import { distribution, epochMs, round, type Distribution } from './stats.js';

/* The JetStream publisher (NatsJetStreamModule) forwarding committed events to a stream of its own
   for the run: how many events per second it forwards from a backlog, and how long a live append
   takes to be in the stream. The messages are taken from the stream by an ordered consumer here,
   in the bench's process, so each is seen once JetStream has stored it. */

export interface JetStreamFigures {
  /** Events in the store before the publisher started. */
  backlog: number;
  /** Events forwarded per second from the backlog: first to last message seen. */
  forwardedPerSec: number;
  /** From the append's commit on the publishing instance to the message seen in the stream. */
  lag: Distribution & { ratePerSec: number };
}

export interface JetStreamPlan {
  events: number;
  lagRatePerSec: number;
  lagMs: number;
}

export const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';
/** Deposits per seeded stream: the publisher sends different aggregates' events concurrently, as live traffic has them. */
const SEED_STREAM_EVENTS = 10;
const LAG_ACCOUNTS = 2000;

/** BENCH_NATS_URL, else NATS_URL, else the local server. */
export function natsUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.BENCH_NATS_URL ?? env.NATS_URL ?? DEFAULT_NATS_URL;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The JetStream figures on `db` (PostgreSQL), or why there are none (NATS not reachable). */
export async function measureJetStream(db: BenchDatabase, servers: string, plan: JetStreamPlan): Promise<JetStreamFigures | { skipped: string }> {
  let nc: NatsConnection;
  try {
    nc = await connect({ servers, timeout: 3000 });
  } catch (error) {
    return { skipped: `NATS not reachable at ${servers} (${(error as Error).message})` };
  }
  const id = randomBytes(5).toString('hex');
  const stream = `ES_BENCH_${id}`;
  const subjectPrefix = `bench${id}`;
  const jsm = await jetstreamManager(nc);
  try {
    const dataSource = await openDataSource(db.store);
    try {
      await seedDeposits(await TypeOrmEventStore.create(dataSource), plan.events, SEED_STREAM_EVENTS);
    } finally {
      await dataSource.destroy();
    }
    // The stream exists before the publisher starts (it finds it), so the consumer sees every message.
    await jsm.streams.add({ name: stream, subjects: [`${subjectPrefix}.>`] });
    const seenAt = new Map<string, number>();
    const messages = await (await jetstream(nc).consumers.get(stream)).consume();
    const consuming = (async () => {
      for await (const message of messages) seenAt.set(message.json<{ eventId: string }>().eventId, epochMs());
    })();
    try {
      const publisher = await InstanceProcess.start({ store: db.store, partitions: 0, publisher: { servers, stream, subjectPrefix } });
      try {
        const deadline = performance.now() + 600_000;
        while (seenAt.size < plan.events) {
          if (performance.now() > deadline) throw new Error(`${seenAt.size} of ${plan.events} events forwarded in 600 s`);
          await sleep(20);
        }
        // A loop, not Math.max(...times): spreading 200,000 arguments overflows the stack.
        let first = Infinity;
        let last = -Infinity;
        for (const at of seenAt.values()) {
          first = Math.min(first, at);
          last = Math.max(last, at);
        }
        const forwardedPerSec = round((plan.events - 1) / ((last - first) / 1000));

        await publisher.call('atRate', { ratePerSec: plan.lagRatePerSec, durationMs: plan.lagMs, accounts: LAG_ACCOUNTS });
        const appended = await publisher.call<[string, number][]>('appendedAt');
        const lagDeadline = epochMs() + 30_000;
        while (appended.some(([eventId]) => !seenAt.has(eventId)) && epochMs() < lagDeadline) await sleep(20);
        // An event never seen counts as lagging until the deadline.
        const lag = distribution(appended.map(([eventId, at]) => (seenAt.get(eventId) ?? lagDeadline) - at));
        return { backlog: plan.events, forwardedPerSec, lag: { ratePerSec: plan.lagRatePerSec, ...lag } };
      } finally {
        await publisher.close();
      }
    } finally {
      await messages.close();
      await consuming;
    }
  } finally {
    await jsm.streams.delete(stream).catch(() => undefined);
    await nc.close();
  }
}
