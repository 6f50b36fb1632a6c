import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { FASTIFY_ADAPTER_OPTIONS } from '@nest-es/http';
import type { StoreOptions } from '@nest-es/typeorm';
import { configurePokerApp } from '../../apps/poker/src/http/configure-poker-app.js';
import { PokerModule, type PokerModuleOptions } from '../../apps/poker/src/poker.module.js';

/** Tests deal seeded hands, and one secret lets tokens outlive a restart of the app. */
const TEST_DEFAULTS: Partial<PokerModuleOptions> = { auth: { seededDeals: true, secret: 'the-poker-test-suites-signing-secret' } };

/** The poker app as `npm start` builds it (on Fastify), on the given store, not yet listening but ready for supertest. */
export async function createPokerApp(store: StoreOptions, options: Omit<PokerModuleOptions, 'store'> = {}): Promise<NestFastifyApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [PokerModule.forRoot({ ...TEST_DEFAULTS, ...options, store })],
  }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(FASTIFY_ADAPTER_OPTIONS), { logger: ['error', 'warn'] });
  configurePokerApp(app);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}
