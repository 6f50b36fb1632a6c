import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { FASTIFY_ADAPTER_OPTIONS } from '@nest-es/http';
import { parseDatabaseUrl } from '@nest-es/typeorm';
import { configurePokerApp } from '../http/configure-poker-app.js';
import { redactUrl } from '../poker-config.js';
import { PokerModule } from '../poker.module.js';

export interface DemoServer {
  app: NestFastifyApplication;
  baseUrl: string;
  /** Where the events go, for the report. */
  database: string;
  close(): Promise<void>;
}

/**
 * The poker app in this process on a free port: on DATABASE_URL if set, else on a SQLite file in a temp
 * folder removed at the end. Seeded deals are on: the demo replays the same hands for a seed.
 */
export async function startDemoServer(databaseUrl: string | undefined): Promise<DemoServer> {
  const folder = databaseUrl ? undefined : mkdtempSync(join(tmpdir(), 'poker-demo-'));
  const url = databaseUrl ?? `sqlite:${join(folder!, 'demo.sqlite')}`;
  const poker = PokerModule.forRoot({ store: parseDatabaseUrl(url), auth: { seededDeals: true } });
  const app = await NestFactory.create<NestFastifyApplication>(poker, new FastifyAdapter(FASTIFY_ADAPTER_OPTIONS), { logger: ['error', 'warn'] });
  // No rate limit: one local client playing as fast as it can, whom the limit meant for the public would stall.
  configurePokerApp(app);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    database: redactUrl(url),
    close: async () => {
      await app.close();
      if (folder) rmSync(folder, { recursive: true, force: true });
    },
  };
}
