import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';

/** Requests per client address per minute. The web page polls about 450 while a hand runs. */
export const DEFAULT_REQUESTS_PER_MINUTE = 600;

/**
 * @nestjs/throttler on every route, as a global guard (429 RESOURCE_EXHAUSTED past the limit). Kept
 * out of PokerModule: the package is CommonJS requiring the ESM Nest, which Node loads but Jest's
 * module sandbox cannot, so in-process test apps run without it and the suites check it on the built server.
 */
@Module({})
export class RateLimitModule {
  static forRoot(requestsPerMinute = DEFAULT_REQUESTS_PER_MINUTE): DynamicModule {
    return {
      module: RateLimitModule,
      imports: [ThrottlerModule.forRoot({ throttlers: [{ ttl: 60_000, limit: requestsPerMinute }] })],
      providers: [{ provide: APP_GUARD, useClass: ThrottlerGuard }],
    };
  }
}
