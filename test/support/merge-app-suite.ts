import { afterAll, beforeAll } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { HttpAdapterName } from './http-adapter.js';
import { createMergeApp } from './merge-app.js';
import { createTestStore, type TestStore } from './test-store.js';

export interface MergeAppSuite {
  store: TestStore;
  app: INestApplication;
  http: ReturnType<typeof request>;
}

/**
 * The merge app on a fresh test store for the calling suite: booted before its tests (listening on
 * a free port with `listen`), closed after them, on the named HTTP adapter (Express by default).
 * Read the fields inside tests and hooks.
 */
export function useMergeApp(options: { listen?: boolean; adapter?: HttpAdapterName } = {}): MergeAppSuite {
  const suite = {} as MergeAppSuite;
  beforeAll(async () => {
    suite.store = await createTestStore();
    suite.app = await createMergeApp(suite.store.options, false, options.adapter);
    if (options.listen) await suite.app.listen(0, '127.0.0.1');
    suite.http = request(suite.app.getHttpServer());
  });
  afterAll(async () => {
    await suite.app?.close();
    await suite.store?.cleanup();
  });
  return suite;
}
