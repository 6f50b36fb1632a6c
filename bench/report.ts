import type { CatchUpFigures } from './catch-up.bench.js';
import type { CommandFigures } from './command.bench.js';
import { HTTP_ADAPTERS, type HttpAdapterKind, type HttpFigures } from './http.bench.js';
import type { PokerActionFigures } from './poker-action.bench.js';
import type { PoisonFigures } from './poison.bench.js';
import type { WorkflowPoisonFigures } from './workflow-poison.bench.js';
import type { RebuildFigures } from './rebuild.bench.js';
import type { HttpProfileFigures } from './http-profile.bench.js';
import type { LiveFigures } from './live.bench.js';
import type { MachineInfo } from './machine.js';
import type { BenchResults, ScaleOutResults, SlowProjectorResults } from './results.js';
import { ratioText } from './targets.js';

type Row = [figure: string, sqlite: string, postgres: string];

const ms = (value: number) => `${value} ms`;
/** A count or a rate with thousands separators: 12,600. */
const count = (value: number) => value.toLocaleString('en-US');
const signed = (value: number) => `${value >= 0 ? '+' : ''}${value}`;
const pair = (p50: number, p99: number) => `${p50} / ${p99} ms`;
const command = (figures: CommandFigures | undefined) => (figures ? `${pair(figures.p50Ms, figures.p99Ms)}, ${count(figures.perSec)}/s` : '-');

const http = (figures: HttpFigures | undefined) =>
  figures ? `${pair(figures.p50Ms, figures.p99Ms)}, ${count(figures.perSec)}/s${figures.failed > 0 ? `, ${figures.failed} failed` : ''}` : '-';
const workflowPoison = (figures: WorkflowPoisonFigures | undefined, mode: 'simple' | 'cascade') =>
  figures ? `${pair(figures.poisoned[mode].p50Ms, figures.poisoned[mode].p99Ms)} (without: ${pair(figures.healthy[mode].p50Ms, figures.healthy[mode].p99Ms)})` : '-';
const poison = (figures: PoisonFigures | undefined) => (figures ? `${pair(figures.poisoned.p50Ms, figures.poisoned.p99Ms)} (without: ${pair(figures.healthy.p50Ms, figures.healthy.p99Ms)})` : '-');
const pokerAction = (figures: PokerActionFigures | undefined) =>
  figures ? `${pair(figures.p50Ms, figures.p99Ms)}, ${count(figures.perSec)}/s${figures.failed > 0 ? `, ${figures.failed} failed` : ''}` : '-';
const catchUp = (figures: CatchUpFigures | undefined) => (figures ? `${count(figures.eventsPerSec)} events/s (${(figures.catchUpMs / 1000).toFixed(1)} s)` : '-');

function rebuildRows(sqlite: RebuildFigures, postgres: RebuildFigures | undefined): Row[] {
  const cell = (figures: RebuildFigures | undefined, pick: (f: RebuildFigures) => string) => (figures ? pick(figures) : '-');
  return [
    [
      `rebuild, ${sqlite.events.toLocaleString('en-US')} events, snapshot every ${sqlite.snapshotEvery.toLocaleString('en-US')} (p50 / p99)`,
      cell(sqlite, (f) => pair(f.snapshot.p50Ms, f.snapshot.p99Ms)),
      cell(postgres, (f) => pair(f.snapshot.p50Ms, f.snapshot.p99Ms)),
    ],
    ['rebuild, no snapshot (p50 / p99)', cell(sqlite, (f) => pair(f.full.p50Ms, f.full.p99Ms)), cell(postgres, (f) => pair(f.full.p50Ms, f.full.p99Ms))],
    ['raw driver read + JSON.parse, same rows (p50)', cell(sqlite, (f) => ms(f.raw.p50Ms)), cell(postgres, (f) => ms(f.raw.p50Ms))],
    [
      'rebuild without snapshots / raw (p50)',
      cell(sqlite, (f) => `${(f.full.p50Ms / f.raw.p50Ms).toFixed(2)}x`),
      cell(postgres, (f) => `${(f.full.p50Ms / f.raw.p50Ms).toFixed(2)}x`),
    ],
  ];
}

function projectionRow(figure: string, results: BenchResults, cell: (p: BenchResults['projection']) => string): Row {
  const { projection } = results;
  return [figure, projection.db === 'sqlite' ? cell(projection) : '-', projection.db === 'postgres' ? cell(projection) : '-'];
}

function slowProjectorRow({ slowProjector }: Pick<SlowProjectorResults, 'slowProjector'>): Row {
  const { baseline } = slowProjector;
  const cell = `${pair(slowProjector.p50Ms, slowProjector.p99Ms)} (without it: ${pair(baseline.p50Ms, baseline.p99Ms)})`;
  const figure = `ASYNC command while a projector takes ${slowProjector.projectorMs} ms per event, 1 caller (p50 / p99)`;
  return [figure, slowProjector.db === 'sqlite' ? cell : '-', slowProjector.db === 'postgres' ? cell : '-'];
}

function memoryRow(figure: string, db: 'sqlite' | 'postgres', start: number, end: number): Row {
  const cell = `${start} / ${end} MB`;
  return [figure, db === 'sqlite' ? cell : '-', db === 'postgres' ? cell : '-'];
}

function rows(results: BenchResults): Row[] {
  const { sqlite, postgres } = results.command;
  const ceiling = (adapter: HttpAdapterKind, db: 'sqlite' | 'postgres') => {
    const figures = results.http[db]?.[adapter]?.ceiling;
    return figures ? `${count(figures.perSec)}/s (empty route ${count(figures.emptyRoute.perSec)}/s, in-process ${count(figures.inProcessPerSec)}/s)` : '-';
  };
  const bare = (adapter: HttpAdapterKind, db: 'sqlite' | 'postgres') => {
    const figures = results.http[db]?.[adapter]?.ceiling;
    return figures?.bareRoute ? `${http(figures.bareRoute)} (${ratioText(figures.bareRoute.perSec / figures.perSec, 0.9)} of the ceiling)` : '-';
  };
  const raw = (db: 'sqlite' | 'postgres') => {
    const figures = results.raw[db];
    return figures ? `${count(figures.commitsPerSec)}/s` : '-';
  };
  const serialRaw = (db: 'sqlite' | 'postgres') => {
    const around = [results.command[db]?.c1, results.command[db]?.mixed?.c1].filter((figures) => figures !== undefined);
    return around.length ? around.map((figures) => `${count(figures.rawSerialPerSec)}/s`).join(' / ') : '-';
  };
  const { memory } = results;
  return [
    ...rebuildRows(results.rebuild, results.rebuild.postgres),
    ['command, 1 caller (p50 / p99, commands/s)', command(sqlite?.c1), command(postgres?.c1)],
    ['command, 16 callers', command(sqlite?.c16), command(postgres?.c16)],
    ['command, 64 callers', command(sqlite?.c64), command(postgres?.c64)],
    [
      `command at a steady ${count(sqlite?.moderate.ratePerSec ?? postgres?.moderate.ratePerSec ?? 0)}/s (p50 / p99)`,
      sqlite ? pair(sqlite.moderate.p50Ms, sqlite.moderate.p99Ms) : '-',
      postgres ? pair(postgres.moderate.p50Ms, postgres.moderate.p99Ms) : '-',
    ],
    ['mixed workload, 1 caller, the first run in a new application (with the process warm-up; no target)', command(sqlite?.mixed?.afterBoot), command(postgres?.mixed?.afterBoot)],
    ['mixed workload (a quarter of the commands on uncached aggregates), 1 caller', command(sqlite?.mixed?.c1), command(postgres?.mixed?.c1)],
    ['mixed workload, 64 callers', command(sqlite?.mixed?.c64), command(postgres?.mixed?.c64)],
    ['raw driver, 1 row per transaction, 64 callers', raw('sqlite'), raw('postgres')],
    ['raw driver, 1 row per transaction, 1 caller, timed in turns with the 1-caller commands / the mixed workload at 1 caller', serialRaw('sqlite'), serialRaw('postgres')],
    [
      'appends/s of 1 / 2 / 3 processes at once, 64 callers each (the append lock)',
      '-',
      results.appendLock ? results.appendLock.map((f) => count(f.perSec)).join(' / ') : '-',
    ],
    ...HTTP_ADAPTERS.flatMap((adapter): Row[] => [
      [`HTTP command on ${adapter}, 1 connection (p50 / p99, commands/s)`, http(results.http.sqlite?.[adapter]?.c1), http(results.http.postgres?.[adapter]?.c1)],
      [`HTTP command on ${adapter}, 64 connections`, http(results.http.sqlite?.[adapter]?.c64), http(results.http.postgres?.[adapter]?.c64)],
      [
        `empty Nest route on ${adapter}, 64 connections (no command, no database: the floor; the ceiling's slices together)`,
        http(results.http.sqlite?.[adapter]?.ceiling.emptyRoute),
        http(results.http.postgres?.[adapter]?.ceiling.emptyRoute),
      ],
      [`HTTP ceiling on ${adapter}: 1 / (1 / empty route + 1 / in-process at 64 callers), the two taken in turns with HTTP at 64`, ceiling(adapter, 'sqlite'), ceiling(adapter, 'postgres')],
      [
        `bare Nest route on ${adapter}, 64 connections (the same command sent by a route of the application's own, without the framework's HTTP module; in the same turns)`,
        bare(adapter, 'sqlite'),
        bare(adapter, 'postgres'),
      ],
    ]),
    ['poker PlayerAction over HTTP on fastify, CASCADE, 1 caller (p50 / p99, actions/s)', pokerAction(results.pokerAction?.sqlite), pokerAction(results.pokerAction?.postgres)],
    [
      `projection catch-up from position 0 over ${(results.catchUp.sqlite ?? results.catchUp.postgres)?.events.toLocaleString('en-US') ?? '-'} events`,
      catchUp(results.catchUp.sqlite),
      catchUp(results.catchUp.postgres),
    ],
    memoryRow(`peak RSS, first / last ${memory.windowS} s of ${memory.durationS} s at ${memory.concurrency} callers`, memory.db, memory.rssStartMb, memory.rssEndMb),
    memoryRow('heap live after a full GC, end of first window / end of run', memory.db, memory.heapLiveStartMb, memory.heapLiveEndMb),
    projectionRow('projection lag of ASYNC commands, 16 callers (p50 / p99)', results, (p) => pair(p.lagP50Ms, p.lagP99Ms)),
    projectionRow('one caller, p50: ASYNC / SIMPLE / CASCADE', results, (p) => `${p.asyncP50Ms} / ${p.simpleP50Ms} / ${p.cascadeP50Ms} ms`),
    projectionRow('cost over ASYNC, p50: SIMPLE / CASCADE (one saga hop)', results, (p) => `${signed(p.simpleCostMs)} / ${signed(p.cascadeCostMs)} ms`),
    slowProjectorRow(results),
    ['SIMPLE on other aggregates with a poison event retrying (p50 / p99)', poison(results.poison.sqlite), poison(results.poison.postgres)],
    ...(['simple', 'cascade'] as const).map((mode): Row => [
      `${mode.toUpperCase()} on other accounts, a saga and a process manager retrying a poison (p50 / p99)`,
      workflowPoison(results.workflowPoison?.sqlite, mode),
      workflowPoison(results.workflowPoison?.postgres, mode),
    ]),
  ];
}

/** A live query's update reaching its watching client, and many subscribers at once. */
function liveRows({ live }: Pick<BenchResults, 'live'>): Row[] {
  if (!live) return [];
  const { sqlite, postgres } = live;
  const cell = (figures: LiveFigures | undefined, pick: (f: LiveFigures) => string) => (figures ? pick(figures) : '-');
  const subscribers = (sqlite ?? postgres)?.subscribers ?? 0;
  return [
    ['live query, commit to the watching client (p50 / p99)', cell(sqlite, (f) => pair(f.commitToClient.p50Ms, f.commitToClient.p99Ms)), cell(postgres, (f) => pair(f.commitToClient.p50Ms, f.commitToClient.p99Ms))],
    [
      'live query across two instances, the projector on one, the client on the other (p50 / p99)',
      '-',
      cell(postgres, (f) => (f.acrossInstances ? pair(f.acrossInstances.p50Ms, f.acrossInstances.p99Ms) : '-')),
    ],
    [
      `live query, ${count(subscribers)} subscribers open: heap per subscriber (both ends) / one change reaching all`,
      cell(sqlite, (f) => `${f.heapKbPerSubscriber} kB / ${f.fanOutMs} ms`),
      cell(postgres, (f) => `${f.heapKbPerSubscriber} kB / ${f.fanOutMs} ms`),
    ],
  ];
}

/** Instances sharing a projector's partitions, and the JetStream publisher: PostgreSQL only. */
function scaleOutRows({ scaleOut, jetStream }: Pick<ScaleOutResults, 'scaleOut' | 'jetStream'>): Row[] {
  const rows: Row[] = [];
  if (scaleOut) {
    const { throughput, lag, failover, refusals, partitions } = scaleOut;
    const events = throughput[0]?.events.toLocaleString('en-US');
    rows.push(
      [`projection with scale-out, 1 / 2 / 3 instances, ${partitions} partitions, ${events} events (events/s)`, '-', throughput.map((t) => count(t.eventsPerSec)).join(' / ')],
      [`cross-instance lag, append on one instance, projector on another, ${lag.ratePerSec}/s (p50 / p99)`, '-', pair(lag.p50Ms, lag.p99Ms)],
      [
        `failover after SIGKILL, rebalance every ${failover.rebalanceIntervalMs} ms (p50 / worst of ${failover.samplesMs.length})`,
        '-',
        `${failover.p50Ms} / ${failover.maxMs} ms`,
      ],
      [
        `commands refused without Expected-Sequence, 2 / 3 instances x ${refusals[0]?.callersPerInstance} callers on ${refusals[0]?.aggregates} aggregates`,
        '-',
        refusals.map((r) => `${count(r.refused)} of ${count(r.sent)}`).join(' / '),
      ],
    );
  }
  if (jetStream) {
    rows.push(
      [`JetStream publisher, ${jetStream.backlog.toLocaleString('en-US')} events of backlog (events/s forwarded)`, '-', `${count(jetStream.forwardedPerSec)}/s`],
      [`JetStream lag, append to message in the stream, ${jetStream.lag.ratePerSec}/s (p50 / p99)`, '-', pair(jetStream.lag.p50Ms, jetStream.lag.p99Ms)],
    );
  }
  return rows;
}

interface RunInfo {
  mode: string;
  startedAt: string;
  machine: MachineInfo;
}

function machineLine({ machine, mode, startedAt }: RunInfo): string {
  return (
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GB, Node ${machine.node}, ${machine.os}; ` +
    `1-minute load average ${machine.loadAverage.start} at the start, ${machine.loadAverage.end} at the end. Mode: ${mode}, ${startedAt}.`
  );
}

/** The table, the machine, the targets and what was skipped. */
function markdown(results: ScaleOutResults | SlowProjectorResults, table: Row[]): string {
  const lines = [
    `| figure | SQLite | PostgreSQL |`,
    `|---|---|---|`,
    ...table.map((row) => `| ${row.join(' | ')} |`),
    '',
    machineLine(results),
    '',
    ...results.targets.map((target) => `- [${target.met ? 'x' : ' '}] ${target.name}: ${target.detail}`),
    ...results.skipped.map((reason) => `- skipped: ${reason}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** The results as a markdown table, the machine and the targets (also what the console shows). */
export function markdownReport(results: BenchResults): string {
  return markdown(results, [...rows(results), ...scaleOutRows(results), ...liveRows(results)]);
}

/** The same for a run of the slow-projector figure alone (`--only slow-projector`). */
export function slowProjectorReport(results: SlowProjectorResults): string {
  return markdown(results, [slowProjectorRow(results)]);
}

/** The same for a run of the scale-out figures alone (`--only scale-out`). */
export function scaleOutReport(results: ScaleOutResults): string {
  return markdown(results, scaleOutRows(results));
}

/** The HTTP profile (`--only http-profile`): microseconds of the main thread per request, by what ran. */
export function httpProfileReport(results: RunInfo & { profile: HttpProfileFigures }): string {
  const { perSec, rows, samplingIntervalUs } = results.profile;
  const lines = [
    `| µs of the main thread per request (SQLite, Fastify, 64 callers) | in process | empty route | HTTP | HTTP beyond the two |`,
    `|---|---|---|---|---|`,
    ...rows.map((row) => `| ${row.part} | ${row.inProcess} | ${row.emptyRoute} | ${row.http} | ${signed(row.beyondCeiling)} |`),
    `| requests/s while profiled | ${perSec.inProcess} | ${perSec.emptyRoute} | ${perSec.http} | |`,
    '',
    `Sampled every ${samplingIntervalUs} µs (the profiler slows each run a little). ${machineLine(results)}`,
  ];
  return `${lines.join('\n')}\n`;
}
