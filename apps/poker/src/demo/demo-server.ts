import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { parseDatabaseUrl } from '@nest-es/typeorm';
import { configurePokerApp } from '../http/configure-poker-app.js';
import { redactUrl } from '../poker-config.js';
import { PokerModule } from '../poker.module.js';

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
  const poker = PokerModule.forRoot({ store: parseDatabaseUrl(url), auth: { seededDeals: true } });
  const app = await NestFactory.create<NestExpressApplication>(poker, { logger: ['error', 'warn'] });
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
