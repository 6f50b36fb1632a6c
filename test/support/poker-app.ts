import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { StoreOptions } from '#event-sourcing';
import { PokerModule } from '../../apps/poker/src/poker.module.js';

/** The poker app as `npm start` builds it, on the given store, not yet listening. */
export async function createPokerApp(store: StoreOptions, options: { shutdownTimeoutMs?: number } = {}): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [PokerModule.forRoot({ store, shutdownTimeoutMs: options.shutdownTimeoutMs })],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: ['error', 'warn'] });
  await app.init();
  return app;
}
