import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Body, Controller, HttpCode, type INestApplication, Module, Param, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { EventSourcingModule } from '@nest-es/core';
import { FASTIFY_ADAPTER_OPTIONS, EventSourcingHttpModule } from '@nest-es/http';
import { type StoreOptions, typeorm } from '@nest-es/typeorm';
import { AccountAggregate } from './bench-aggregates.js';
import { BARE_PREFIX, BareCommandController } from './bare-command.controller.js';
import { measureCommands, warmAccounts } from './command.bench.js';
import type { HttpLoad } from './http-load.js';
import { mean, round } from './stats.js';

export interface HttpFigures {
  connections: number;
  perSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses other than 2xx, and connection errors: should be 0. */
  failed: number;
}

/** Nest's two HTTP adapters, each measured with the same load. */
export const HTTP_ADAPTERS = ['express', 'fastify'] as const;
export type HttpAdapterKind = (typeof HTTP_ADAPTERS)[number];

export interface HttpLoadFigures {
  c1: HttpFigures;
  /** The HTTP slices of `ceiling`, together. */
  c64: HttpFigures;
  ceiling: HttpCeilingFigures;
}

/**
 * What HTTP at 64 connections is held against: 1 / (1 / empty route + 1 / in-process at 64 callers),
 * the two figures taken in turns with the HTTP figure, slice after slice, on the same app.
 */
export interface HttpCeilingFigures {
  /** The empty route's slices together: the floor under the HTTP figures on this adapter. */
  emptyRoute: HttpFigures;
  inProcessPerSec: number;
  perSec: number;
  /**
   * Not part of the ceiling: the bare route (BareCommandController) in the same turns, the same command
   * without the framework's HTTP module. Absent in runs before it was measured.
   */
  bareRoute?: HttpFigures;
  /** Slices of each figure. */
  turns: number;
}

/**
 * Slices of the ceiling's figures and of HTTP at 64, taken in turns: this host's speed swings by half
 * within minutes, and figures taken minutes apart put one phase over another.
 */
const CEILING_TURNS = 4;

@Module({ providers: [AccountAggregate], controllers: [BareCommandController] })
class HttpBenchModule {}

/** autocannon's load against `options.url`, from a process of its own. */
export function load(options: HttpLoad): Promise<HttpFigures> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./http-load.js', import.meta.url)), [JSON.stringify(options)]);
    child.once('message', (message) => {
      const result = message as { ok: number; failed: number; durationS: number; p50Ms: number; p99Ms: number };
      resolve({ connections: options.connections, perSec: round(result.ok / result.durationS), p50Ms: result.p50Ms, p99Ms: result.p99Ms, failed: result.failed });
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`the HTTP load process exited with ${code}`))));
  });
}

/** A reply of the command route's shape (one Deposited event), built once. */
const EMPTY_REPLY = { aggregateType: 'bench-account', aggregateId: '', sequence: 1, events: [{ type: 'Deposited', sequence: 1, position: 1, payload: { amount: 1 } }] };

/**
 * The floor under the HTTP figures: the same request to a Nest route that runs no command and answers
 * with EMPTY_REPLY. What this route serves at 64 connections is what the adapter and Nest alone allow;
 * a command over HTTP also pays for the command.
 */
@Controller('commands/bench-account')
class EmptyCommandController {
  @Post(':aggregateId/Deposit')
  @HttpCode(200)
  send(@Param('aggregateId') aggregateId: string, @Body() _body: unknown): typeof EMPTY_REPLY {
    return { ...EMPTY_REPLY, aggregateId };
  }
}

@Module({ controllers: [EmptyCommandController] })
class EmptyRouteModule {}

const APP_OPTIONS = { logger: ['error' as const, 'warn' as const] };

function createApp(module: Parameters<typeof NestFactory.create>[0], adapter: HttpAdapterKind): Promise<INestApplication> {
  return adapter === 'express' ? NestFactory.create(module, APP_OPTIONS) : NestFactory.create(module, new FastifyAdapter(FASTIFY_ADAPTER_OPTIONS), APP_OPTIONS);
}

/** The bench module with HTTP on, as docs/http-api.md bootstraps it on each adapter. */
export function createHttpApp(store: StoreOptions, adapter: HttpAdapterKind): Promise<INestApplication> {
  return createApp({ module: HttpBenchModule, imports: [EventSourcingModule.forRoot({ adapter: typeorm(store), metrics: true }), EventSourcingHttpModule.forRoot()] }, adapter);
}

/** Listens on a free loopback port; its URL. */
export async function listen(app: INestApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
}

/** The empty route (above) alone, on one adapter. */
export function createEmptyRouteApp(adapter: HttpAdapterKind): Promise<INestApplication> {
  return createApp(EmptyRouteModule, adapter);
}

export const durationSeconds = (durationMs: number) => Math.max(1, Math.round(durationMs / 1000));

/**
 * Commands over the framework's HTTP contract (`POST /commands/bench-account/:id/Deposit`, on
 * loopback) on one adapter, driven by autocannon at 1 and 64 connections; the same Deposits as the
 * in-process figures, after the same warm-up (one Deposit to every account, so each is cached). At
 * 64, in turns with the empty route on the same adapter, in-process commands on the same app and the
 * bare route (BareCommandController) on the same app.
 */
export async function measureHttp(store: StoreOptions, adapter: HttpAdapterKind, durationMs: number, accounts: number): Promise<HttpLoadFigures> {
  const app = await createHttpApp(store, adapter);
  const emptyApp = await createEmptyRouteApp(adapter);
  try {
    const [url, emptyUrl] = [await listen(app), await listen(emptyApp)];
    const durationS = durationSeconds(durationMs);
    await warmAccounts(app, accounts);
    await load({ url, connections: 64, durationS: 1, accounts });
    await load({ url: emptyUrl, connections: 64, durationS: 1, accounts });
    const c1 = await load({ url, connections: 1, durationS, accounts });
    const sliceS = Math.max(1, Math.round(durationS / CEILING_TURNS));
    await load({ url, connections: 64, durationS: 1, accounts, prefix: BARE_PREFIX });
    const slices = { empty: [] as HttpFigures[], inProcess: [] as number[], http: [] as HttpFigures[], bare: [] as HttpFigures[] };
    for (let turn = 0; turn < CEILING_TURNS; turn++) {
      slices.empty.push(await load({ url: emptyUrl, connections: 64, durationS: sliceS, accounts }));
      slices.inProcess.push((await measureCommands(app, 64, sliceS * 1000, accounts)).perSec);
      slices.http.push(await load({ url, connections: 64, durationS: sliceS, accounts }));
      slices.bare.push(await load({ url, connections: 64, durationS: sliceS, accounts, prefix: BARE_PREFIX }));
    }
    const [emptyRoute, inProcessPerSec] = [together(slices.empty), mean(slices.inProcess)];
    const ceiling = {
      emptyRoute,
      inProcessPerSec: round(inProcessPerSec),
      perSec: httpCeiling(emptyRoute.perSec, inProcessPerSec),
      bareRoute: together(slices.bare),
      turns: CEILING_TURNS,
    };
    return { c1, c64: together(slices.http), ceiling };
  } finally {
    await emptyApp.close();
    await app.close();
  }
}

/** 1 / (1 / empty route + 1 / in-process): both share the one event loop, so their times per request add up. */
export function httpCeiling(emptyRoutePerSec: number, inProcessPerSec: number): number {
  return round(1 / (1 / emptyRoutePerSec + 1 / inProcessPerSec));
}

/** Slices of equal length as one figure: the mean rate, the median slice's p50, the worst slice's p99. */
function together(slices: readonly HttpFigures[]): HttpFigures {
  const p50s = slices.map((slice) => slice.p50Ms).sort((a, b) => a - b);
  return {
    connections: slices[0].connections,
    perSec: round(mean(slices.map((slice) => slice.perSec))),
    p50Ms: p50s[Math.floor(p50s.length / 2)],
    p99Ms: Math.max(...slices.map((slice) => slice.p99Ms)),
    failed: slices.reduce((sum, slice) => sum + slice.failed, 0),
  };
}
