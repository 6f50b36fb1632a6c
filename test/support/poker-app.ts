import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import type { StoreOptions } from '@nest-es/typeorm';
import { configurePokerApp } from '../../apps/poker/src/http/configure-poker-app.js';
import { PokerModule, type PokerModuleOptions } from '../../apps/poker/src/poker.module.js';

/** Tests deal seeded hands, and one secret lets tokens outlive a restart of the app. */
const TEST_DEFAULTS: Partial<PokerModuleOptions> = { auth: { seededDeals: true, secret: 'the-poker-test-suites-signing-secret' } };

/** The poker app as `npm start` builds it, on the given store, not yet listening. */
export async function createPokerApp(store: StoreOptions, options: Omit<PokerModuleOptions, 'store'> = {}): Promise<NestExpressApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [PokerModule.forRoot({ ...TEST_DEFAULTS, ...options, store })],
  }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({ logger: ['error', 'warn'] });
  configurePokerApp(app);
  await app.init();
  return app;
}
