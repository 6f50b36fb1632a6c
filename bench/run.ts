import 'reflect-metadata';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { CommandGateway } from '@nest-es/core';
import { EVENT_SOURCING_DATA_SOURCE } from '@nest-es/typeorm';
import { bootBenchApp } from './bench-app.js';
import { BESIDE_RAW_SLICES, besideSerialRaw, type BesideRaw } from './beside-raw.js';
import { measureAppendLock } from './append-lock.bench.js';
import { measureCatchUp } from './catch-up.bench.js';
import { measureAtRate, measureCommands, measureMixed, MIXED_COLD_SHARE, MIXED_WARM_FOLLOW_UPS, runCommands, runMixed, warmAccounts, type CommandFigures } from './command.bench.js';
import { Deposit } from './bench-aggregates.js';
import { postgresDatabase, postgresUrl, sqliteDatabase, type BenchDatabase } from './databases.js';
import { loadAverage, machineInfo } from './machine.js';
import { measureMemory } from './memory.bench.js';
import { FULL_PLAN, QUICK_PLAN, type BenchPlan } from './plan.js';
import type { RawDriver } from './raw-driver.js';
import { RawPostgres } from './raw-postgres.js';
import { RawSqlite } from './raw-sqlite.js';
import { measurePoison, type PoisonFigures } from './poison.bench.js';
import { measurePokerAction, type PokerActionFigures } from './poker-action.bench.js';
import { measureWorkflowPoison, type WorkflowPoisonFigures } from './workflow-poison.bench.js';
import { measureProjection } from './projection.bench.js';
import { measureRebuild, REBUILD_EVENTS, type RebuildFigures } from './rebuild.bench.js';
import { HTTP_ADAPTERS, measureHttp } from './http.bench.js';
import { measureJetStream, natsUrl } from './jetstream.bench.js';
import { measureLive, measureLiveAcross } from './live.bench.js';
import { measureLoneCommand } from './lone-command.bench.js';
import { measureHttpProfile } from './http-profile.bench.js';
import { withNewestRun } from './performance-page.js';
import { httpProfileReport, markdownReport, scaleOutReport, slowProjectorReport } from './report.js';
import type { CatchUpFigures } from './catch-up.bench.js';
import type { BenchResults, DatabaseCommandFigures, MixedFigures, DatabaseHttpFigures, PokerActionResults, RawCommitFigures, ScaleOutResults, SlowProjectorResults } from './results.js';
import { measureScaleOut } from './scale-out.bench.js';
import { measureSlowProjector, SLOW_PROJECTOR_MS } from './slow-projector.bench.js';
import { round } from './stats.js';
import { checkTargets, httpTargets, liveTargets, oneCallerTargets, pokerActionTargets, poisonTargets, scaleOutTargets, slowProjectorTargets, workflowPoisonTargets } from './targets.js';

const RESULTS_DIR = join(process.cwd(), 'bench', 'results');
const PERFORMANCE_PAGE = join(process.cwd(), 'docs', 'performance.md');
const RAW_CALLERS = 64;

const started = performance.now();
const log = (message: string) => console.error(`[bench ${((performance.now() - started) / 1000).toFixed(0)}s] ${message}`);

interface DatabaseFigures {
  rebuild: RebuildFigures;
  command: DatabaseCommandFigures;
  raw: RawCommitFigures;
  http: DatabaseHttpFigures;
  catchUp: CatchUpFigures;
  poison: PoisonFigures;
  workflowPoison: WorkflowPoisonFigures;
  pokerAction: PokerActionFigures;
}

function openRaw(db: BenchDatabase): Promise<RawDriver> {
  const { store } = db;
  if ('type' in store && store.type === 'sqlite') return Promise.resolve(new RawSqlite(store.database));
  if ('type' in store && store.type === 'postgres') return new RawPostgres(store.url, store.schema!).connect();
  throw new Error('the bench opens its own stores');
}

/** Connections the store may use at once: the raw baseline gets as many (1 for SQLite's one connection). */
function storeConnections(dataSource: DataSource): number {
  if (dataSource.options.type !== 'postgres') return 1;
  return (dataSource.driver as unknown as { master: { options: { max: number } } }).master.options.max;
}

async function benchDatabase(db: BenchDatabase, plan: BenchPlan, fresh: () => Promise<BenchDatabase>): Promise<DatabaseFigures> {
  const raw = await openRaw(db);
  try {
    log(`${db.kind}: seeding two aggregates of ${REBUILD_EVENTS.toLocaleString('en-US')} events, then rebuilding`);
    const rebuild = await measureRebuild(db, raw, plan.rebuildSamples);
    // The module as an application runs it: default options (aggregate cache on).
    const app = await bootBenchApp(db.store);
    let command: DatabaseCommandFigures;
    let rawFigures: RawCommitFigures;
    try {
      log(`${db.kind}: commands (warm-up, 1 caller, ${plan.moderateRatePerSec}/s, 16 and 64 callers), then the raw driver at ${RAW_CALLERS} callers and at 1`);
      // The light loads first: the database's background work after the heaviest run (checkpoints,
      // vacuum) would land in whatever is measured next. The raw driver's 64 callers run right after
      // the framework's.
      const c1 = await warmOneCaller(app, raw, plan);
      const moderate = await measureAtRate(app, plan.moderateRatePerSec, plan.commandMs, plan.accounts);
      const c16 = await measureCommands(app, 16, plan.commandMs, plan.accounts);
      const c64 = await measureCommands(app, 64, plan.commandMs, plan.accounts);
      command = { c1, c16, c64, moderate };
      const connections = storeConnections(app.get<DataSource>(EVENT_SOURCING_DATA_SOURCE));
      const commitsPerSec = round(await raw.commitsPerSecond(RAW_CALLERS, plan.rawCommitMs, connections));
      rawFigures = { callers: RAW_CALLERS, connections, commitsPerSec };
      await seedMixedAccounts(app);
    } finally {
      await app.close();
    }
    command.mixed = await measureMixedWorkload(db, raw, plan);
    const http = await benchHttp(db, plan);
    log(`${db.kind}: a projector catching up over ${plan.catchUpEvents.toLocaleString('en-US')} events in a store of its own`);
    const catchUpDb = await fresh();
    const catchUp = await measureCatchUp(catchUpDb.store, plan.catchUpEvents).finally(() => catchUpDb.cleanup());
    const poison = await benchPoison(db.kind, plan, fresh);
    const workflowPoison = await benchWorkflowPoison(db.kind, plan, fresh);
    const pokerAction = await benchPokerAction(db.kind, plan, fresh);
    return { rebuild, command, raw: rawFigures, http, catchUp, poison, workflowPoison, pokerAction };
  } finally {
    await raw.close();
  }
}

/** The accounts warmed and cached, then one caller in turns with the raw driver's serial commits. */
async function warmOneCaller(app: INestApplicationContext, raw: RawDriver, plan: BenchPlan): Promise<BesideRaw<CommandFigures>> {
  await warmAccounts(app, plan.accounts);
  await measureCommands(app, 64, plan.warmupMs, plan.accounts);
  return besideSerialRaw(raw, plan.rawCommitMs, () => runCommands(app, 1, plan.commandMs / BESIDE_RAW_SLICES, plan.accounts));
}

/**
 * The mixed workload's accounts, per run: the first after boot (the process's warm-up, untargeted),
 * one caller (about as long as the raw driver's windows between its slices), and 64 callers (enough
 * commands for a stable rate).
 */
const MIXED_ACCOUNTS = { afterBoot: 500, c1: 2_500, c64: 4_000 } as const;
const mixedIds = (run: keyof typeof MIXED_ACCOUNTS) => Array.from({ length: MIXED_ACCOUNTS[run] }, (_, i) => `mixed-${run}-${i}`);

/** One Deposit to each of the mixed workload's accounts, so that they exist in the store. */
async function seedMixedAccounts(app: INestApplicationContext): Promise<void> {
  const gateway = app.get(CommandGateway);
  const ids = [...mixedIds('afterBoot'), ...mixedIds('c1'), ...mixedIds('c64')];
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      for (let index = next++; index < ids.length; index = next++) await gateway.send(new Deposit(ids[index], 1));
    }),
  );
}

/**
 * The mixed workload in a new application's cache: every account is in the store and none is cached.
 * The first run after boot also pays the process's warm-up (its CPU per command falls by about half
 * over the first two thousand commands), so it is kept apart from the one-caller figure the target reads.
 */
async function measureMixedWorkload(db: BenchDatabase, raw: RawDriver, plan: BenchPlan): Promise<MixedFigures> {
  log(`${db.kind}: the mixed workload (a cold load, then ${MIXED_WARM_FOLLOW_UPS} more commands, per account) after boot, at 1 caller in turns with the raw driver, and at 64 callers, on a fresh cache`);
  const app = await bootBenchApp(db.store);
  try {
    const afterBoot = await measureMixed(app, 1, mixedIds('afterBoot'));
    const ids = mixedIds('c1');
    const slice = ids.length / BESIDE_RAW_SLICES;
    const c1 = await besideSerialRaw(raw, plan.rawCommitMs, (index) => runMixed(app, 1, ids.slice(index * slice, (index + 1) * slice)));
    return { afterBoot, c1: { ...c1, coldShare: MIXED_COLD_SHARE }, c64: await measureMixed(app, 64, mixedIds('c64')) };
  } finally {
    await app.close();
  }
}

/** Commands over HTTP on each adapter, one after the other on the database's store. */
async function benchHttp(db: BenchDatabase, plan: BenchPlan): Promise<DatabaseHttpFigures> {
  const http = {} as DatabaseHttpFigures;
  for (const adapter of HTTP_ADAPTERS) {
    log(`${db.kind}: commands over HTTP on ${adapter} (autocannon, 1 connection, then 64 in turns with the empty route, in-process commands and the bare route)`);
    http[adapter] = await measureHttp(db.store, adapter, plan.httpMs, plan.accounts);
  }
  return http;
}

/**
 * `--only http`: on each database, HTTP on each adapter at 1 connection and then at 64 in turns with
 * the two figures its ceiling is made of (the empty route, in-process commands) and the bare route,
 * printed with the targets.
 */
async function httpOnly(plan: BenchPlan, url: string): Promise<void> {
  const probe = await postgresDatabase(url);
  if ('skipped' in probe) log(probe.skipped);
  const databases = 'skipped' in probe ? [sqliteDatabase()] : [sqliteDatabase(), probe];
  const http: BenchResults['http'] = {};
  for (const db of databases) {
    try {
      http[db.kind] = await benchHttp(db, plan);
    } finally {
      await db.cleanup();
    }
  }
  console.log(JSON.stringify({ http, targets: httpTargets(http) }, null, 2));
}

/** A fresh PostgreSQL schema (the server answered before). */
async function freshPostgres(url: string): Promise<BenchDatabase> {
  const db = await postgresDatabase(url);
  if ('skipped' in db) throw new Error(db.skipped);
  return db;
}

/** Instances in processes of their own sharing a projector, then the JetStream publisher; each in fresh schemas. */
async function benchScaleOut(url: string, plan: BenchPlan, skipped: string[]): Promise<Pick<BenchResults, 'scaleOut' | 'jetStream'>> {
  const scaleOut = await measureScaleOut(() => freshPostgres(url), plan.scaleOut, log);
  const { events, lagRatePerSec, lagMs } = plan.jetStream;
  log(`postgres + NATS: the JetStream publisher over ${events.toLocaleString('en-US')} events of backlog, then lag at ${lagRatePerSec}/s for ${lagMs / 1000} s`);
  const db = await freshPostgres(url);
  const jetStream = await measureJetStream(db, natsUrl(), plan.jetStream).finally(() => db.cleanup());
  if (!('skipped' in jetStream)) return { scaleOut, jetStream };
  skipped.push(jetStream.skipped);
  return { scaleOut };
}

/** `--only scale-out`: those figures alone, in bench/results/scale-out.json and .md. */
async function scaleOutOnly(plan: BenchPlan, url: string): Promise<void> {
  const startedAt = new Date().toISOString();
  const machine = machineInfo();
  const skipped: string[] = [];
  const probe = await postgresDatabase(url);
  const sections = 'skipped' in probe ? (skipped.push(probe.skipped), {}) : await benchScaleOut(url, plan, skipped);
  const results: ScaleOutResults = {
    mode: plan.mode,
    startedAt,
    machine: { ...machine, loadAverage: { ...machine.loadAverage, end: loadAverage() } },
    ...sections,
    skipped,
    targets: scaleOutTargets(sections),
  };
  const markdown = scaleOutReport(results);
  console.log(`\n${markdown}`);
  writeResults(results, markdown, 'scale-out');
}

/** ASYNC commands beside a projector that takes 500 ms per event, in a SQLite store of its own. */
async function benchSlowProjector(plan: BenchPlan): Promise<BenchResults['slowProjector']> {
  log(`sqlite: ASYNC commands, 1 caller, ${plan.slowProjectorMs / 1000} s, while a projector takes ${SLOW_PROJECTOR_MS} ms per event`);
  const db = sqliteDatabase();
  const figures = await measureSlowProjector(db.store, plan.slowProjectorMs).finally(() => db.cleanup());
  return { db: 'sqlite', ...figures };
}

/** `--only slow-projector`: that figure alone, in bench/results/slow-projector.json and .md. */
async function slowProjectorOnly(plan: BenchPlan): Promise<void> {
  const startedAt = new Date().toISOString();
  const machine = machineInfo();
  const slowProjector = await benchSlowProjector(plan);
  const results: SlowProjectorResults = {
    mode: plan.mode,
    startedAt,
    machine: { ...machine, loadAverage: { ...machine.loadAverage, end: loadAverage() } },
    slowProjector,
    skipped: [],
    targets: slowProjectorTargets({ slowProjector }),
  };
  const markdown = slowProjectorReport(results);
  console.log(`\n${markdown}`);
  writeResults(results, markdown, 'slow-projector');
}

async function benchPoison(kind: string, plan: BenchPlan, fresh: () => Promise<BenchDatabase>): Promise<PoisonFigures> {
  log(`${kind}: ${plan.poisonSamples} SIMPLE sends on healthy aggregates, without and with a poison event being retried`);
  const poisonDb = await fresh();
  return measurePoison(poisonDb.store, plan.poisonSamples).finally(() => poisonDb.cleanup());
}

async function benchWorkflowPoison(kind: string, plan: BenchPlan, fresh: () => Promise<BenchDatabase>): Promise<WorkflowPoisonFigures> {
  log(`${kind}: ${plan.poisonSamples} SIMPLE and CASCADE sends on healthy accounts, without and with a saga and a process manager retrying a poison`);
  const poisonDb = await fresh();
  return measureWorkflowPoison(poisonDb.store, plan.poisonSamples).finally(() => poisonDb.cleanup());
}

/** `--only poison`: those figures alone on each database (projector, then workflows), printed with their targets. */
async function poisonOnly(plan: BenchPlan, url: string): Promise<void> {
  const poison: BenchResults['poison'] = { sqlite: await benchPoison('sqlite', plan, async () => sqliteDatabase()) };
  const workflowPoison: BenchResults['workflowPoison'] = { sqlite: await benchWorkflowPoison('sqlite', plan, async () => sqliteDatabase()) };
  const probe = await postgresDatabase(url);
  if ('skipped' in probe) log(probe.skipped);
  else {
    poison.postgres = await benchPoison('postgres', plan, async () => probe);
    const again = await postgresDatabase(url);
    if (!('skipped' in again)) workflowPoison.postgres = await benchWorkflowPoison('postgres', plan, async () => again);
  }
  console.log(JSON.stringify({ poison, workflowPoison, targets: [...poisonTargets(poison), ...workflowPoisonTargets(workflowPoison)] }, null, 2));
}

/** Live queries on each database (across two instances on PostgreSQL), each in a store of its own. */
async function benchLive(plan: BenchPlan, url: string, skipped: string[]): Promise<NonNullable<BenchResults['live']>> {
  const live: NonNullable<BenchResults['live']> = {};
  const databases: BenchDatabase[] = [sqliteDatabase()];
  const probe = await postgresDatabase(url);
  if (!('skipped' in probe)) databases.push(probe);
  else if (!skipped.includes(probe.skipped)) skipped.push(probe.skipped);
  for (const db of databases) {
    log(`${db.kind}: live queries: ${plan.liveSamples} commits to one client, then ${LIVE_SUBSCRIBERS} subscribers and one change`);
    try {
      const figures = await measureLive(db.store, plan.liveSamples, LIVE_SUBSCRIBERS);
      if (db.kind === 'postgres') {
        log('postgres: live queries across two instances (the projector on one, the client on the other)');
        figures.acrossInstances = await measureLiveAcross(db.store, plan.liveSamples);
      }
      live[db.kind] = figures;
    } finally {
      await db.cleanup();
    }
  }
  return live;
}

/** `--only live`: live queries on each database, printed with their targets and kept in bench/results/live.json. */
async function liveOnly(plan: BenchPlan, url: string): Promise<void> {
  const startedAt = new Date().toISOString();
  const skipped: string[] = [];
  const live = await benchLive(plan, url, skipped);
  const machine = machineInfo();
  const results = { mode: plan.mode, startedAt, machine: { ...machine, loadAverage: { ...machine.loadAverage, end: loadAverage() } }, live, skipped, targets: liveTargets(live) };
  console.log(JSON.stringify(results, null, 2));
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'live.json'), `${JSON.stringify(results, null, 2)}\n`);
}

const LIVE_SUBSCRIBERS = 1000;

/** `--only lone-command`: where a lone PostgreSQL command's time goes, step by step, kept in bench/results/lone-command.json. */
async function loneCommandOnly(plan: BenchPlan, url: string): Promise<void> {
  const db = await postgresDatabase(url);
  if ('skipped' in db) throw new Error(db.skipped);
  const startedAt = new Date().toISOString();
  log(`postgres: a lone command, step by step, ${plan.loneCommandOps} operations each`);
  const steps = await measureLoneCommand(db.store, plan.loneCommandOps).finally(() => db.cleanup());
  const machine = machineInfo();
  const results = { mode: plan.mode, startedAt, machine: { ...machine, loadAverage: { ...machine.loadAverage, end: loadAverage() } }, steps };
  console.log(JSON.stringify(results, null, 2));
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'lone-command.json'), `${JSON.stringify(results, null, 2)}\n`);
}

/**
 * `--only one-caller`: the two one-caller PostgreSQL figures the 0.6x targets read (warm, and the
 * mixed workload in a new application), each in turns with the raw driver's serial commits, printed
 * with their targets and kept in bench/results/one-caller.json.
 */
async function oneCallerOnly(plan: BenchPlan, url: string): Promise<void> {
  const db = await postgresDatabase(url);
  if ('skipped' in db) throw new Error(db.skipped);
  const startedAt = new Date().toISOString();
  const raw = await openRaw(db);
  try {
    log('postgres: commands at 1 caller on cached accounts, in turns with the raw driver');
    const app = await bootBenchApp(db.store);
    let c1: BesideRaw<CommandFigures>;
    try {
      c1 = await warmOneCaller(app, raw, plan);
      await seedMixedAccounts(app);
    } finally {
      await app.close();
    }
    const mixed = await measureMixedWorkload(db, raw, plan);
    const machine = machineInfo();
    const results = { mode: plan.mode, startedAt, machine: { ...machine, loadAverage: { ...machine.loadAverage, end: loadAverage() } }, c1, mixed, targets: oneCallerTargets(c1, mixed) };
    console.log(JSON.stringify(results, null, 2));
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(join(RESULTS_DIR, 'one-caller.json'), `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await raw.close();
    await db.cleanup();
  }
}

/**
 * `--only http-profile`: where a command's time over HTTP goes (SQLite, Fastify), against the in-process
 * command and the empty route, profiled; kept in bench/results/http-profile.json and .md.
 */
async function httpProfileOnly(plan: BenchPlan): Promise<void> {
  const db = sqliteDatabase();
  const startedAt = new Date().toISOString();
  log(`sqlite: profiling commands in process, the empty route and commands over HTTP on fastify, ${plan.httpMs / 1000} s each`);
  const profile = await measureHttpProfile(db.store, plan.httpMs, plan.accounts).finally(() => db.cleanup());
  const machine = machineInfo();
  const results = { mode: plan.mode, startedAt, machine: { ...machine, loadAverage: { ...machine.loadAverage, end: loadAverage() } }, profile };
  const report = httpProfileReport(results);
  console.log(report);
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'http-profile.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(RESULTS_DIR, 'http-profile.md'), report);
}

/** The poker app on Fastify in a store of its own: one caller's PlayerActions over HTTP with CASCADE. */
async function benchPokerAction(kind: string, plan: BenchPlan, fresh: () => Promise<BenchDatabase>): Promise<PokerActionFigures> {
  log(`${kind}: the poker app on fastify, ${plan.pokerActions} PlayerActions over HTTP with CASCADE, 1 caller`);
  const pokerDb = await fresh();
  return measurePokerAction(pokerDb.store, plan.pokerActions).finally(() => pokerDb.cleanup());
}

/** `--only poker-action`: that figure on each database, printed with its target and kept in bench/results/poker-action.json. */
async function pokerActionOnly(plan: BenchPlan, url: string): Promise<void> {
  const startedAt = new Date().toISOString();
  const machine = machineInfo();
  const skipped: string[] = [];
  const pokerAction: NonNullable<BenchResults['pokerAction']> = { sqlite: await benchPokerAction('sqlite', plan, async () => sqliteDatabase()) };
  const probe = await postgresDatabase(url);
  if ('skipped' in probe) skipped.push(probe.skipped);
  else pokerAction.postgres = await benchPokerAction('postgres', plan, async () => probe);
  const results: PokerActionResults = {
    mode: plan.mode,
    startedAt,
    machine: { ...machine, loadAverage: { ...machine.loadAverage, end: loadAverage() } },
    pokerAction,
    skipped,
    targets: pokerActionTargets(pokerAction),
  };
  console.log(JSON.stringify(results, null, 2));
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'poker-action.json'), `${JSON.stringify(results, null, 2)}\n`);
}

const SECTIONS = ['scale-out', 'slow-projector', 'poison', 'http', 'http-profile', 'live', 'lone-command', 'one-caller', 'poker-action'] as const;

/** `--only <section>`: one section alone. */
function onlySection(args: string[]): (typeof SECTIONS)[number] | undefined {
  const at = args.indexOf('--only');
  if (at < 0) return undefined;
  const section = SECTIONS.find((name) => name === args[at + 1]);
  if (!section) throw new Error(`--only takes ${SECTIONS.join(' or ')}, not ${args[at + 1] ?? 'nothing'}`);
  return section;
}

/** `--report`: latest.md and the performance page written again from latest.json, after a change to the report's form. */
function reportAgain(): void {
  const results = JSON.parse(readFileSync(join(RESULTS_DIR, 'latest.json'), 'utf8')) as BenchResults;
  writeResults(results, markdownReport(results), 'latest');
}

async function main(): Promise<void> {
  if (process.argv.includes('--report')) return reportAgain();
  const plan = process.argv.includes('--quick') ? QUICK_PLAN : FULL_PLAN;
  const url = postgresUrl();
  const only = onlySection(process.argv);
  if (only === 'scale-out') return scaleOutOnly(plan, url);
  if (only === 'slow-projector') return slowProjectorOnly(plan);
  if (only === 'poison') return poisonOnly(plan, url);
  if (only === 'http') return httpOnly(plan, url);
  if (only === 'http-profile') return httpProfileOnly(plan);
  if (only === 'live') return liveOnly(plan, url);
  if (only === 'lone-command') return loneCommandOnly(plan, url);
  if (only === 'one-caller') return oneCallerOnly(plan, url);
  if (only === 'poker-action') return pokerActionOnly(plan, url);
  const startedAt = new Date().toISOString();
  const machine = machineInfo();
  const skipped: string[] = [];
  const sqlite = sqliteDatabase();
  const postgres = await postgresDatabase(url);
  const databases = [sqlite];
  if ('skipped' in postgres) skipped.push(postgres.skipped);
  else databases.push(postgres);
  try {
    const figures = new Map<string, DatabaseFigures>();
    const fresh = async (kind: string): Promise<BenchDatabase> => (kind === 'sqlite' ? sqliteDatabase() : freshPostgres(url));
    for (const db of databases) figures.set(db.kind, await benchDatabase(db, plan, () => fresh(db.kind)));
    let appendLock: BenchResults['appendLock'];
    if (figures.has('postgres')) {
      log(`postgres: 1, 2 and 3 processes appending at once (the append lock), ${plan.appendLockMs / 1000} s each`);
      const lockDb = await fresh('postgres');
      appendLock = await measureAppendLock(lockDb.store, plan.appendLockMs).finally(() => lockDb.cleanup());
    }
    const scaleOut = figures.has('postgres') ? await benchScaleOut(url, plan, skipped) : {};

    log(`sqlite: sustained run of ${plan.memoryMs / 1000} s for memory`);
    const memoryApp = await bootBenchApp(sqlite.store);
    const memory = await measureMemory(memoryApp, {
      durationMs: plan.memoryMs,
      windowMs: plan.memoryWindowMs,
      concurrency: 64,
      accounts: plan.memoryAccounts,
    }).finally(() => memoryApp.close());

    // A store of its own: a projector starting on the command figures' store would first read all of it.
    log(`sqlite: projection lag (ASYNC, 16 callers, ${plan.projectionMs / 1000} s), then ${plan.syncSamples} sends per sync mode`);
    const projectionDb = sqliteDatabase();
    const projection = await measureProjection(projectionDb.store, plan.projectionMs, plan.syncSamples).finally(() => projectionDb.cleanup());
    const slowProjector = await benchSlowProjector(plan);
    const live = await benchLive(plan, url, skipped);

    const sqliteFigures = figures.get('sqlite')!;
    const postgresFigures = figures.get('postgres');
    const partial: Omit<BenchResults, 'targets'> = {
      mode: plan.mode,
      startedAt,
      machine: { ...machine, loadAverage: { ...machine.loadAverage, end: loadAverage() } },
      rebuild: { db: 'sqlite', ...sqliteFigures.rebuild, ...(postgresFigures ? { postgres: postgresFigures.rebuild } : {}) },
      command: Object.fromEntries([...figures].map(([db, f]) => [db, f.command])),
      raw: Object.fromEntries([...figures].map(([db, f]) => [db, f.raw])),
      http: Object.fromEntries([...figures].map(([db, f]) => [db, f.http])),
      catchUp: Object.fromEntries([...figures].map(([db, f]) => [db, f.catchUp])),
      poison: Object.fromEntries([...figures].map(([db, f]) => [db, f.poison])),
      workflowPoison: Object.fromEntries([...figures].map(([db, f]) => [db, f.workflowPoison])),
      pokerAction: Object.fromEntries([...figures].map(([db, f]) => [db, f.pokerAction])),
      ...(appendLock ? { appendLock } : {}),
      memory: { db: 'sqlite', ...memory },
      projection: { db: 'sqlite', ...projection },
      slowProjector,
      ...scaleOut,
      live,
      skipped,
    };
    const results: BenchResults = { ...partial, targets: [...checkTargets(partial), ...pokerActionTargets(partial.pokerAction), ...liveTargets(live)] };
    const markdown = markdownReport(results);
    console.log(`\n${markdown}`);
    // latest.* and the performance page show the newest full run; a quick look does not replace it.
    writeResults(results, markdown, plan.mode === 'full' ? 'latest' : 'quick');
  } finally {
    for (const db of databases) await db.cleanup();
  }
}

/**
 * Each written whole or not at all (a .tmp renamed into place): `<name>.json` and `<name>.md`, and for
 * the newest full run the performance page showing it (made before anything is written, so a page
 * without its block stops the writing).
 */
function writeResults(results: ScaleOutResults | SlowProjectorResults, markdown: string, name: 'latest' | 'quick' | 'scale-out' | 'slow-projector'): void {
  const files: Array<[path: string, text: string]> = [
    [join(RESULTS_DIR, `${name}.json`), `${JSON.stringify(results, null, 2)}\n`],
    [join(RESULTS_DIR, `${name}.md`), markdown],
  ];
  if (name === 'latest') files.push([PERFORMANCE_PAGE, withNewestRun(readFileSync(PERFORMANCE_PAGE, 'utf8'), markdown)]);
  mkdirSync(RESULTS_DIR, { recursive: true });
  for (const [path, text] of files) {
    writeFileSync(`${path}.tmp`, text);
    renameSync(`${path}.tmp`, path);
  }
  log(`results in ${join('bench', 'results', `${name}.json`)} and ${name}.md${name === 'latest' ? ', shown in docs/performance.md' : ''}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
