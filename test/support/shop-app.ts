import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { EventSourcingModule, type ProcessingOptions, type StoreOptions } from '@nest-es/core';
import { SHOP_PROVIDERS } from './shop.domain.js';

/** The shop of `shop.domain.ts` on the framework, with fast polling for tests (`processing` overrides it). */
export async function createShopApp(
  store: StoreOptions,
  options: { http?: boolean; syncTimeoutMs?: number; shutdownTimeoutMs?: number; drainTimeoutMs?: number; processing?: ProcessingOptions } = {},
): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      EventSourcingModule.forRoot({
        store,
        http: options.http ?? false,
        syncTimeoutMs: options.syncTimeoutMs,
        shutdownTimeoutMs: options.shutdownTimeoutMs,
        drainTimeoutMs: options.drainTimeoutMs,
        processing: { pollIntervalMs: 50, timerPollIntervalMs: 20, ...options.processing },
      }),
    ],
    providers: SHOP_PROVIDERS,
  }).compile();
  const app = moduleRef.createNestApplication({ logger: ['error'] });
  await app.init();
  return app;
}
