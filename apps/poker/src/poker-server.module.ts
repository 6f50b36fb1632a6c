import { type DynamicModule, Module } from '@nestjs/common';
import { RateLimitModule } from './http/rate-limit.module.js';
import { PokerModule, type PokerModuleOptions } from './poker.module.js';

/** The poker app as a server runs it (`npm start`, the demo): PokerModule behind the rate limit. */
@Module({})
export class PokerServerModule {
  static forRoot(options: PokerModuleOptions & { requestsPerMinute?: number }): DynamicModule {
    const { requestsPerMinute, ...poker } = options;
    return { module: PokerServerModule, imports: [RateLimitModule.forRoot(requestsPerMinute), PokerModule.forRoot(poker)] };
  }
}
