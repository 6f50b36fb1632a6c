import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import type { ProcessingOptions, StoreOptions } from '@nest-es/core';
import { configurePokerApp } from '../../apps/poker/src/http/configure-poker-app.js';
import { PokerModule } from '../../apps/poker/src/poker.module.js';

/** The poker app as `npm start` builds it, on the given store, not yet listening. */
export async function createPokerApp(
  store: StoreOptions,
  options: { shutdownTimeoutMs?: number; processing?: ProcessingOptions } = {},
): Promise<NestExpressApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [PokerModule.forRoot({ store, shutdownTimeoutMs: options.shutdownTimeoutMs, processing: options.processing })],
  }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({ logger: ['error', 'warn'] });
  configurePokerApp(app);
  await app.init();
  return app;
}
