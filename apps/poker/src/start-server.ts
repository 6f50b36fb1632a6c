import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { FASTIFY_ADAPTER_OPTIONS } from '@nest-es/http';
import { configurePokerApp } from './http/configure-poker-app.js';
import { DEFAULT_REQUESTS_PER_MINUTE } from './http/rate-limit.js';
import { loadPokerConfig, redactUrl } from './poker-config.js';
import { PokerModule } from './poker.module.js';
import type { SignalShutdown } from './signal-shutdown.js';
import { withTracing } from './tracing.js';

/** `npm start` once its modules are loaded: the app on Fastify and DATABASE_URL, behind the rate limit, listening on PORT. */
export async function startServer(shutdown: SignalShutdown): Promise<void> {
  const config = loadPokerConfig();
  const module = withTracing(
    PokerModule.forRoot({
      store: config.store,
      auth: config.auth,
      processing: config.scaleOut ? { scaleOut: config.scaleOut } : undefined,
      nats: config.nats,
    }),
  );
  // Closing drains the commands in flight and their sync waits, then closes the store.
  const app = await shutdown.step(() => NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter(FASTIFY_ADAPTER_OPTIONS)), (created) => () => created.close());
  configurePokerApp(app, { requestsPerMinute: config.requestsPerMinute ?? DEFAULT_REQUESTS_PER_MINUTE, allowedOrigins: config.allowedOrigins });
  // Every interface, as before on Express: Fastify's default host is localhost only.
  await shutdown.step(() => app.listen(config.port, '0.0.0.0'));
  // The port bound, which PORT=0 leaves to the system.
  const { port } = app.getHttpServer().address() as AddressInfo;
  Logger.log(`poker listening on http://localhost:${port} (web page at /, API docs at /docs) with DATABASE_URL=${redactUrl(config.databaseUrl)}`, 'Poker');
}
