import { Session } from 'node:inspector/promises';
import type { Profiler } from 'node:inspector';
import type { INestApplication } from '@nestjs/common';
import type { StoreOptions } from '@nest-es/typeorm';
import { bootBenchApp } from './bench-app.js';
import { measureCommands, warmAccounts } from './command.bench.js';
import { createEmptyRouteApp, createHttpApp, durationSeconds, listen, load } from './http.bench.js';
import { round } from './stats.js';

/** Microseconds of the server's main thread per request (or command), by what ran. */
export interface HttpProfileRow {
  part: string;
  inProcess: number;
  emptyRoute: number;
  http: number;
  /** HTTP minus the in-process command and the empty route: what the ceiling does not account for. */
  beyondCeiling: number;
}

export interface HttpProfileFigures {
  /** Requests (commands) per second of each profiled run; the profiler slows each a little. */
  perSec: { inProcess: number; emptyRoute: number; http: number };
  samplingIntervalUs: number;
  rows: HttpProfileRow[];
}

const SAMPLING_INTERVAL_US = 250;

/** What ran, by the file of the function sampled; a native function counts as the code that called it. */
const PARTS: Array<[part: string, test: (url: string) => boolean]> = [
  ['framework: core', (url) => url.includes('/libs/core/')],
  ['framework: HTTP module', (url) => url.includes('/libs/http/')],
  ['framework: store adapter', (url) => url.includes('/libs/typeorm/')],
  ['database driver', (url) => /node_modules\/(better-sqlite3|pg|pg-protocol|pg-pool|pg-types)\//.test(url)],
  ['Nest', (url) => url.includes('node_modules/@nestjs/')],
  ['Fastify', (url) => /node_modules\/(fastify|@fastify|find-my-way|secure-json-parse|fast-json-stringify|toad-cache|avvio|light-my-request)\//.test(url)],
  ['class-validator, class-transformer', (url) => /node_modules\/class-(validator|transformer)\//.test(url)],
  ['helmet', (url) => url.includes('node_modules/helmet/')],
  ['OpenTelemetry API, prom-client', (url) => /node_modules\/(@opentelemetry|prom-client)\//.test(url)],
  ['other packages', (url) => url.includes('node_modules/')],
  ['Node (HTTP, streams, timers)', (url) => url.startsWith('node:')],
  ['the bench itself', () => true],
];
const BY_NAME: Record<string, string> = { '(idle)': 'idle (waiting for I/O)', '(garbage collector)': 'garbage collection', '(program)': 'V8 (compiling, runtime)' };

function partOf(url: string): string {
  return PARTS.find(([, test]) => test(url))![0];
}

/** Time of the profile by part, in microseconds. */
function timeByPart(profile: Profiler.Profile): { byPart: Map<string, number>; total: number } {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const part = (id: number): string => {
    const node = nodes.get(id)!;
    const named = BY_NAME[node.callFrame.functionName];
    if (named) return named;
    if (node.callFrame.url) return partOf(node.callFrame.url);
    const parent = parentOf.get(id);
    return parent === undefined ? 'Node (HTTP, streams, timers)' : part(parent);
  };
  const byPart = new Map<string, number>();
  let total = 0;
  profile.samples!.forEach((id, index) => {
    const us = profile.timeDeltas![index] ?? 0;
    const of = part(id);
    total += us;
    byPart.set(of, (byPart.get(of) ?? 0) + us);
  });
  return { byPart, total };
}

/** `work` under V8's sampling profiler; its CPU profile. */
async function profiled(work: () => Promise<unknown>): Promise<Profiler.Profile> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
    await session.post('Profiler.start');
    await work();
    return (await session.post('Profiler.stop')).profile;
  } finally {
    session.disconnect();
  }
}

/** Microseconds per request by part: the share of the profile's time, over the requests served per second. */
function perRequest(profile: Profiler.Profile, perSec: number): Map<string, number> {
  const { byPart, total } = timeByPart(profile);
  return new Map([...byPart].map(([part, us]) => [part, ((us / total) * 1e6) / perSec]));
}

/** The app listening (and, for commands, its accounts warmed), then 64 connections profiled after a second of warm-up. */
async function profileLoad(app: INestApplication, durationMs: number, accounts: number, warm = false): Promise<{ profile: Profiler.Profile; perSec: number }> {
  const url = await listen(app);
  if (warm) await warmAccounts(app, accounts);
  await load({ url, connections: 64, durationS: 1, accounts });
  let perSec = 0;
  const profile = await profiled(async () => {
    perSec = (await load({ url, connections: 64, durationS: durationSeconds(durationMs), accounts })).perSec;
  });
  return { profile, perSec };
}

/**
 * Where the time of a command over HTTP goes, against the two figures its ceiling is made of: the
 * server's main thread profiled while it serves 64 callers in process, the empty Fastify route at 64
 * connections, and commands over HTTP on Fastify at 64 connections, each after the same warm-up.
 */
export async function measureHttpProfile(store: StoreOptions, durationMs: number, accounts: number): Promise<HttpProfileFigures> {
  const inProcessApp = await bootBenchApp(store);
  let inProcess: { profile: Profiler.Profile; perSec: number };
  try {
    await warmAccounts(inProcessApp, accounts);
    await measureCommands(inProcessApp, 64, 1000, accounts);
    let perSec = 0;
    const profile = await profiled(async () => {
      perSec = (await measureCommands(inProcessApp, 64, durationMs, accounts)).perSec;
    });
    inProcess = { profile, perSec };
  } finally {
    await inProcessApp.close();
  }
  const emptyApp = await createEmptyRouteApp('fastify');
  const empty = await profileLoad(emptyApp, durationMs, accounts).finally(() => emptyApp.close());
  const httpApp = await createHttpApp(store, 'fastify');
  const http = await profileLoad(httpApp, durationMs, accounts, true).finally(() => httpApp.close());
  return {
    perSec: { inProcess: inProcess.perSec, emptyRoute: empty.perSec, http: http.perSec },
    samplingIntervalUs: SAMPLING_INTERVAL_US,
    rows: rows(perRequest(inProcess.profile, inProcess.perSec), perRequest(empty.profile, empty.perSec), perRequest(http.profile, http.perSec)),
  };
}

function rows(inProcess: Map<string, number>, emptyRoute: Map<string, number>, http: Map<string, number>): HttpProfileRow[] {
  const parts = [...new Set([...PARTS.map(([part]) => part), ...Object.values(BY_NAME)])];
  const row = (part: string, of: (m: Map<string, number>) => number): HttpProfileRow => {
    const [a, b, c] = [of(inProcess), of(emptyRoute), of(http)];
    return { part, inProcess: round1(a), emptyRoute: round1(b), http: round1(c), beyondCeiling: round1(c - a - b) };
  };
  const sum = (m: Map<string, number>) => [...m.values()].reduce((total, us) => total + us, 0);
  return [
    ...parts.map((part) => row(part, (m) => m.get(part) ?? 0)).sort((x, y) => y.beyondCeiling - x.beyondCeiling),
    row('all', sum),
  ];
}

/** Tenths of a microsecond; three significant figures past 100. */
const round1 = (us: number) => (Math.abs(us) >= 100 ? round(us) : Math.round(us * 10) / 10);
