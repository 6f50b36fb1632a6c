import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { parseDatabaseUrl } from '@nest-es/typeorm';
import { configurePokerApp } from '../http/configure-poker-app.js';
import { redactUrl } from '../poker-config.js';
import { PokerServerModule } from '../poker-server.module.js';

const DEMO_REQUESTS_PER_MINUTE = 1_000_000;

export interface DemoServer {
  app: NestExpressApplication;
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
  // One local client playing as fast as it can: the limit meant for the public would stall it.
  const server = PokerServerModule.forRoot({ store: parseDatabaseUrl(url), auth: { seededDeals: true }, requestsPerMinute: DEMO_REQUESTS_PER_MINUTE });
  const app = await NestFactory.create<NestExpressApplication>(server, { logger: ['error', 'warn'] });
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
