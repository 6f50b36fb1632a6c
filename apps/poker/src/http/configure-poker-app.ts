import { createRequire } from 'node:module';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { addCommandOperations } from '@nest-es/http';
import { crossSiteWrites } from './cross-site-writes.js';
import { publicFolder } from './public-folder.js';
import { rateLimit } from './rate-limit.js';
import { securityHeaders } from './security-headers.js';

/** The OpenAPI document's version: the framework's, which the app is released with. */
const FRAMEWORK_VERSION = (createRequire(import.meta.url)('@nest-es/core/package.json') as { version: string }).version;

export interface PokerHttpOptions {
  /** One limit per client address over every route; none when absent (the tests, the demo). */
  requestsPerMinute?: number;
  /** Origins besides the server's own that may send state-changing requests (a proxy that rewrites Host). */
  allowedOrigins?: string[];
}

/**
 * What the poker app adds to the Nest application before it starts, for `npm start`, the demo
 * and the tests alike: the security headers, the rate limit and the cross-site checks on every
 * request, then the web page at `/` and the OpenAPI document at `/docs` (JSON at `/docs-json`).
 * The app runs on Fastify (`new FastifyAdapter(FASTIFY_ADAPTER_OPTIONS)`). The middleware added here
 * runs through @fastify/middie, in this order, in a request hook ahead of the static files, Swagger,
 * the body parsers, Nest's routes and the 404 answer: so each of them is covered. Only a URL the
 * router cannot decode is answered before it (400, by FASTIFY_ADAPTER_OPTIONS).
 */
export function configurePokerApp(app: NestFastifyApplication, options: PokerHttpOptions = {}): void {
  app.use(securityHeaders());
  if (options.requestsPerMinute !== undefined) app.use(rateLimit(options.requestsPerMinute));
  app.use(crossSiteWrites(options.allowedOrigins));
  app.useStaticAssets({ root: publicFolder() });
  const config = new DocumentBuilder()
    .setTitle('The nest-es poker app')
    .setDescription(
      'The sample poker app: one operation per command (POST /commands/{aggregateType}/{aggregateId}/{commandType} with the headers ' +
        'Command-Id, Correlation-Id, Expected-Sequence, Sync-Mode, Merge-Strategy), aggregate reads, and the poker routes (buy-in, balances, leaderboard, table view, bots).',
    )
    .setVersion(FRAMEWORK_VERSION)
    .addBearerAuth()
    .build();
  SwaggerModule.setup('docs', app, () => addCommandOperations(SwaggerModule.createDocument(app, config), app));
}
