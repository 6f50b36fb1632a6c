import type { INestApplication, Provider } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { EventSourcingModule, type ProcessingOptions } from '@nest-es/core';
import { type StoreOptions, typeorm } from '@nest-es/typeorm';
import { SHOP_PROVIDERS } from './shop.domain.js';
import { EventSourcingHttpModule } from '@nest-es/http';

/** The shop of `shop.domain.ts` on the framework, with fast polling for tests (`processing` overrides it). */
export async function createShopApp(
  store: StoreOptions,
  options: { http?: boolean; syncTimeoutMs?: number; shutdownTimeoutMs?: number; drainTimeoutMs?: number; processing?: ProcessingOptions; providers?: Provider[] } = {},
): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      EventSourcingModule.forRoot({
        adapter: typeorm(store),
        syncTimeoutMs: options.syncTimeoutMs,
        shutdownTimeoutMs: options.shutdownTimeoutMs,
        drainTimeoutMs: options.drainTimeoutMs,
        processing: { pollIntervalMs: 50, timerPollIntervalMs: 20, ...options.processing },
        metrics: options.http === true,
      }),
      ...(options.http ? [EventSourcingHttpModule.forRoot()] : []),
    ],
    providers: [...SHOP_PROVIDERS, ...(options.providers ?? [])],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: ['error'] });
  await app.init();
  return app;
}
