import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventSourcingModule, type StoreOptions } from '@nest-es/core';
import { AccountAggregate } from './bench-aggregates.js';
import type { HttpLoad } from './http-load.js';
import { round } from './stats.js';

export interface HttpFigures {
  connections: number;
  perSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses other than 2xx, and connection errors: should be 0. */
  failed: number;
}

@Module({ providers: [AccountAggregate] })
class HttpBenchModule {}

function load(options: HttpLoad): Promise<HttpFigures> {
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

/**
 * Commands over the framework's HTTP contract (`POST /commands/bench-account/:id/Deposit`, Express, on
 * loopback), driven by autocannon at 1 and 64 connections; the same Deposits as the in-process figures.
 */
export async function measureHttp(store: StoreOptions, durationMs: number, accounts: number): Promise<{ c1: HttpFigures; c64: HttpFigures }> {
  const app = await NestFactory.create({ module: HttpBenchModule, imports: [EventSourcingModule.forRoot({ store, http: true })] }, { logger: ['error', 'warn'] });
  try {
    await app.listen(0, '127.0.0.1');
    const url = await app.getUrl();
    const durationS = Math.max(1, Math.round(durationMs / 1000));
    await load({ url, connections: 64, durationS: 1, accounts });
    const c1 = await load({ url, connections: 1, durationS, accounts });
    const c64 = await load({ url, connections: 64, durationS, accounts });
    return { c1, c64 };
  } finally {
    await app.close();
  }
}
