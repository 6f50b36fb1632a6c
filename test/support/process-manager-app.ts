import type { INestApplication, Provider } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { EVENT_STORE, EventSourcingModule, type EventStore } from '@nest-es/core';
import { TIMER_STORE } from '@nest-es/core/internal';
import type { TimerStore } from '@nest-es/core/adapter';
import { typeorm } from '@nest-es/typeorm';
import { createTestStore } from './test-store.js';

/** An application of process-manager tests, with the event and timer stores they watch. */
export interface ProcessManagerApp {
  app: INestApplication;
  events: EventStore;
  timers: TimerStore;
  /** Closes the application and drops its store. */
  close(): Promise<void>;
}

/** The framework on a fresh test store with `providers`, its subscribers polling every 50 ms. */
export async function startProcessManagerApp(...providers: Provider[]): Promise<ProcessManagerApp> {
  const store = await createTestStore();
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options), processing: { pollIntervalMs: 50 } })],
    providers,
  }).compile();
  const app = moduleRef.createNestApplication({ logger: ['error'] });
  await app.init();
  return {
    app,
    events: app.get(EVENT_STORE),
    timers: app.get(TIMER_STORE),
    close: async () => {
      await app.close();
      await store.cleanup();
    },
  };
}
