import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { configurePokerApp } from './http/configure-poker-app.js';
import { loadPokerConfig, redactUrl } from './poker-config.js';
import { PokerServerModule } from './poker-server.module.js';
import { withTracing } from './tracing.js';

async function bootstrap(): Promise<void> {
  const config = loadPokerConfig();
  const app = await NestFactory.create<NestExpressApplication>(
    withTracing(
      PokerServerModule.forRoot({
        store: config.store,
        auth: config.auth,
        requestsPerMinute: config.requestsPerMinute,
        processing: config.scaleOut ? { scaleOut: config.scaleOut } : undefined,
        nats: config.nats,
      }),
    ),
  );
  configurePokerApp(app);
  // SIGTERM drains the commands in flight and their sync waits, then ends the process with code 0
  // (without useProcessExit Nest re-raises the signal, and supervisors count exit 143 as a failure).
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  await app.listen(config.port);
  Logger.log(`poker listening on http://localhost:${config.port} (web page at /, API docs at /docs) with DATABASE_URL=${redactUrl(config.databaseUrl)}`, 'Poker');
}

bootstrap().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
