import type { DataSource } from 'typeorm';
import { TypeOrmEventStore } from '@nest-es/typeorm';
import { openDataSource } from '@nest-es/typeorm';
import { seedDeposits } from './catch-up.bench.js';
import type { BenchDatabase } from './databases.js';
import { InstanceProcess } from './instance-process.js';
import { PartitionGate } from './partition-gate.js';
import { SCALE_OUT_VIEW } from './scale-out-options.js';
import { distribution, epochMs, round, type Distribution } from './stats.js';

/* Several instances of one application on one PostgreSQL schema, each a process of its own with
   `processing.scaleOut` (scale-out-instance.ts): what sharing the projector's partitions gains, how
   fast an append on one instance reaches a projector on another, how long a killed instance's
   partitions stand still, and whether commands racing between instances are ever refused. */

/** Partitions of the projector: 1, 2 and 3 instances each get an equal share. */
export const PARTITIONS = 6;
/** The throughput figure's instances look every 100 ms, so taking the shares adds little to the time. */
const THROUGHPUT_REBALANCE_MS = 100;
/** The framework's default, which the failover figure is about. */
export const DEFAULT_REBALANCE_MS = 500;
/** Deposits per seeded stream: many aggregates, so the partitions get about equal shares. */
const SEED_STREAM_EVENTS = 100;
const LAG_ACCOUNTS = 2000;
/** The lag figure's polling backstop, out of reach: only `LISTEN/NOTIFY` wakes the projector in time. */
const LAG_POLL_MS = 60_000;
/** Deposits sent at the lag figure's rate, and projected, before the measured ones. */
const LAG_WARMUP_MS = 1000;
/** Accounts deposited to right after the kill: every partition gets some (60 into 6: all but surely). */
const FAILOVER_ACCOUNTS = 60;
const CONTENDED_ACCOUNTS = 10;
const CALLERS_PER_INSTANCE = 16;

export interface ScaleOutThroughput {
  instances: number;
  events: number;
  ms: number;
  eventsPerSec: number;
  /** Partitions each instance ran at the end. */
  split: number[];
}

export interface CrossInstanceLag extends Distribution {
  /** Deposits per second sent to the writing instance. */
  ratePerSec: number;
}

export interface FailoverFigures {
  rebalanceIntervalMs: number;
  /** From the SIGKILL to the survivor having projected a deposit appended right after it, in every partition. */
  samplesMs: number[];
  p50Ms: number;
  maxMs: number;
}

export interface RefusalFigures {
  instances: number;
  callersPerInstance: number;
  aggregates: number;
  sent: number;
  refused: number;
  /** Refused by error code. */
  codes: Record<string, number>;
  rate: number;
}

export interface ScaleOutFigures {
  partitions: number;
  throughput: ScaleOutThroughput[];
  lag: CrossInstanceLag;
  failover: FailoverFigures;
  refusals: RefusalFigures[];
}

export interface ScaleOutPlan {
  /** Deposits seeded before the instances project them (each instance count in a store of its own). */
  events: number;
  lagRatePerSec: number;
  lagMs: number;
  failoverSamples: number;
  refusalMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(20);
  }
}

function postgresOf(db: BenchDatabase): { url: string; schema: string } {
  const { store } = db;
  if (!('type' in store) || store.type !== 'postgres' || !store.url || !store.schema) throw new Error('the scale-out figures need a PostgreSQL schema');
  return { url: store.url, schema: store.schema };
}

/** Starts the instances one after another (each migrates and creates the read model table on its own). */
async function startAll(count: number, options: Omit<Parameters<typeof InstanceProcess.start>[0], 'store'>, db: BenchDatabase): Promise<InstanceProcess[]> {
  const instances: InstanceProcess[] = [];
  try {
    for (let i = 0; i < count; i++) instances.push(await InstanceProcess.start({ store: db.store, ...options }));
  } catch (error) {
    await closeAll(instances);
    throw error;
  }
  return instances;
}

async function closeAll(instances: InstanceProcess[]): Promise<void> {
  await Promise.all(instances.map((instance) => instance.close()));
}

/** The deposits the read model holds: each projected once adds exactly 1. */
async function projectedDeposits(dataSource: DataSource): Promise<number> {
  const [{ total }] = await dataSource.query('SELECT coalesce(sum(balance), 0)::int AS total FROM bench_scale_view');
  return total;
}

/** When each event was projected by any of the instances (null: not yet). */
async function projectedAt(instances: InstanceProcess[], ids: string[]): Promise<(number | null)[]> {
  const answers = await Promise.all(instances.map((instance) => instance.call<(number | null)[]>('projectedAt', ids)));
  return ids.map((_, i) => answers.map((times) => times[i]).find((time) => time !== null) ?? null);
}

async function untilProjected(instances: InstanceProcess[], ids: string[], timeoutMs: number): Promise<number[]> {
  let times: (number | null)[] = [];
  await until(async () => (times = await projectedAt(instances, ids)).every((time) => time !== null), timeoutMs, 'the deposits projected');
  return times as number[];
}

/**
 * `instances` processes project `events` seeded deposits. The bench holds every partition lease
 * while they join, then lets go: from then until the read model holds every deposit.
 */
async function measureThroughput(db: BenchDatabase, instances: number, events: number): Promise<ScaleOutThroughput> {
  const { url, schema } = postgresOf(db);
  const dataSource = await openDataSource(db.store);
  try {
    await seedDeposits(await TypeOrmEventStore.create(dataSource), events, SEED_STREAM_EVENTS);
    // Partition checkpoints (and leases) are named `<subscriber>#<i>/<n>` (docs/scaling.md).
    const units = Array.from({ length: PARTITIONS }, (_, i) => `${SCALE_OUT_VIEW}#${i}/${PARTITIONS}`);
    const gate = await PartitionGate.shut(url, schema, units);
    let running: InstanceProcess[] = [];
    try {
      running = await startAll(instances, { partitions: PARTITIONS, rebalanceIntervalMs: THROUGHPUT_REBALANCE_MS }, db);
      await gate.joined(instances);
      await sleep(2 * THROUGHPUT_REBALANCE_MS);
      const early = (await Promise.all(running.map((instance) => instance.running()))).flat();
      if (early.length > 0) throw new Error(`instances ran ${early.join(', ')} while the bench held their leases: partition-gate.ts no longer matches the store's lease key`);
      const started = performance.now();
      await gate.open();
      await until(async () => (await projectedDeposits(dataSource)) >= events, 600_000, `${instances} instance(s) projecting ${events} deposits`);
      const ms = performance.now() - started;
      const projected = await projectedDeposits(dataSource);
      if (projected !== events) throw new Error(`the read model holds ${projected} deposits of ${events}`);
      const split = await Promise.all(running.map(async (instance) => (await instance.running()).length));
      return { instances, events, ms: round(ms), eventsPerSec: round(events / (ms / 1000)), split };
    } finally {
      await gate.open().catch(() => undefined);
      await closeAll(running);
    }
  } finally {
    await dataSource.destroy();
  }
}

/**
 * Deposits at a steady rate on a writer (processing off); a projector on another instance, woken by
 * LISTEN/NOTIFY alone. Each deposit's lag runs from its append's commit on the writer (the store's
 * append returned) to the projector's handler applying it, both in wall-clock time of this machine.
 * The figure is the steady state: the deposits of a warm-up second at the same rate are sent and
 * projected first and not counted. Without it, the first deposits after the projector took its
 * partitions also paid for the instances' start: every partition woken at once by the first
 * notification, the projector's pool opening connections for their reads and transactions while
 * they queued, and each code path's first, unoptimized run.
 */
async function measureLag(db: BenchDatabase, ratePerSec: number, durationMs: number): Promise<CrossInstanceLag> {
  const [projector] = await startAll(1, { partitions: PARTITIONS, pollIntervalMs: LAG_POLL_MS }, db);
  const [writer] = await startAll(1, { partitions: 0 }, db).catch(async (error) => {
    await projector.close();
    throw error;
  });
  try {
    await until(async () => (await projector.running()).length === PARTITIONS, 30_000, 'the projector taking its partitions');
    await writer.call('atRate', { ratePerSec, durationMs: LAG_WARMUP_MS, accounts: LAG_ACCOUNTS });
    const warmUp = await writer.call<[string, number][]>('appendedAt');
    await untilProjected([projector], warmUp.map(([id]) => id), 30_000);
    await writer.call('forgetAppended');
    await writer.call('atRate', { ratePerSec, durationMs, accounts: LAG_ACCOUNTS });
    const appended = await writer.call<[string, number][]>('appendedAt');
    const deadline = epochMs() + 30_000;
    const ids = appended.map(([id]) => id);
    let times: (number | null)[] = [];
    await until(async () => (times = await projectedAt([projector], ids)).every((time) => time !== null) || epochMs() > deadline, 60_000, 'the lag run');
    // A deposit never projected counts as lagging until the deadline.
    return { ratePerSec, ...distribution(appended.map(([, at], i) => (times[i] ?? deadline) - at)) };
  } finally {
    await closeAll([projector, writer]);
  }
}

/** Two instances share the partitions; one is killed and deposits go to every partition right after. */
async function measureFailover(db: BenchDatabase, samples: number): Promise<FailoverFigures> {
  const [writer] = await startAll(1, { partitions: 0 }, db);
  const samplesMs: number[] = [];
  const accounts = Array.from({ length: FAILOVER_ACCOUNTS }, (_, i) => `failover-${i}`);
  try {
    for (let sample = 0; sample < samples; sample++) {
      const pair = await startAll(2, { partitions: PARTITIONS }, db);
      try {
        await until(
          async () => (await Promise.all(pair.map((instance) => instance.running()))).every((units) => units.length === PARTITIONS / 2),
          30_000,
          'two instances sharing the partitions',
        );
        // Both are projecting (subscriptions live, not starting) before the kill.
        await untilProjected(pair, await writer.call<string[]>('deposit', accounts), 30_000);
        const [victim, survivor] = pair;
        const killedAt = epochMs();
        await victim.kill();
        const after = await writer.call<string[]>('deposit', accounts);
        samplesMs.push(round(Math.max(...(await untilProjected([survivor], after, 30_000))) - killedAt));
      } finally {
        await closeAll(pair);
      }
    }
  } finally {
    await writer.close();
  }
  const { p50Ms } = distribution(samplesMs);
  return { rebalanceIntervalMs: DEFAULT_REBALANCE_MS, samplesMs, p50Ms, maxMs: Math.max(...samplesMs) };
}

/** Instances (processing off) whose callers deposit to the same few accounts without an expected sequence. */
async function measureRefusals(db: BenchDatabase, instances: number, durationMs: number): Promise<RefusalFigures> {
  const accounts = Array.from({ length: CONTENDED_ACCOUNTS }, (_, i) => `contended-${instances}-${i}`);
  const senders = await startAll(instances, { partitions: 0 }, db);
  let results: { sent: number; refused: Record<string, number> }[];
  try {
    results = await Promise.all(senders.map((sender) => sender.call<(typeof results)[number]>('contend', { callers: CALLERS_PER_INSTANCE, durationMs, accounts })));
  } finally {
    await closeAll(senders);
  }
  const sent = results.reduce((sum, r) => sum + r.sent, 0);
  const codes: Record<string, number> = {};
  for (const r of results) for (const [code, count] of Object.entries(r.refused)) codes[code] = (codes[code] ?? 0) + count;
  const refused = Object.values(codes).reduce((sum, count) => sum + count, 0);
  // Every command not refused is stored once: none lost in a race, none applied twice.
  const dataSource = await openDataSource(db.store);
  try {
    const store = await TypeOrmEventStore.create(dataSource);
    const lengths = await Promise.all(accounts.map(async (aggregateId) => (await store.readStream({ aggregateType: 'bench-account', aggregateId })).length));
    const stored = lengths.reduce((sum, length) => sum + length, 0);
    if (stored !== sent - refused) throw new Error(`${sent - refused} deposits accepted, ${stored} stored`);
  } finally {
    await dataSource.destroy();
  }
  return { instances, callersPerInstance: CALLERS_PER_INSTANCE, aggregates: CONTENDED_ACCOUNTS, sent, refused, codes, rate: sent === 0 ? 0 : refused / sent };
}

/** Every scale-out figure, each in a fresh schema from `fresh`. */
export async function measureScaleOut(fresh: () => Promise<BenchDatabase>, plan: ScaleOutPlan, log: (message: string) => void): Promise<ScaleOutFigures> {
  const inFresh = async <T>(work: (db: BenchDatabase) => Promise<T>): Promise<T> => {
    const db = await fresh();
    try {
      return await work(db);
    } finally {
      await db.cleanup();
    }
  };
  const throughput: ScaleOutThroughput[] = [];
  for (const instances of [1, 2, 3]) {
    log(`postgres scale-out: ${instances} instance(s) projecting ${plan.events.toLocaleString('en-US')} deposits over ${PARTITIONS} partitions`);
    throughput.push(await inFresh((db) => measureThroughput(db, instances, plan.events)));
  }
  log(`postgres scale-out: cross-instance lag at ${plan.lagRatePerSec}/s for ${plan.lagMs / 1000} s`);
  const lag = await inFresh((db) => measureLag(db, plan.lagRatePerSec, plan.lagMs));
  log(`postgres scale-out: failover after SIGKILL, ${plan.failoverSamples} samples`);
  const failover = await inFresh((db) => measureFailover(db, plan.failoverSamples));
  const refusals: RefusalFigures[] = [];
  for (const instances of [2, 3]) {
    log(`postgres scale-out: ${instances} instances x ${CALLERS_PER_INSTANCE} callers on ${CONTENDED_ACCOUNTS} accounts for ${plan.refusalMs / 1000} s (refusals)`);
    refusals.push(await inFresh((db) => measureRefusals(db, instances, plan.refusalMs)));
  }
  return { partitions: PARTITIONS, throughput, lag, failover, refusals };
}
