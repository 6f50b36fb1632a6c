import { afterAll, beforeAll } from '@jest/globals';
import type { PokerClient } from '../../apps/poker/src/client/poker-client.js';
import { type PokerServer, startPokerServer } from './poker-server.js';
import { createTestStore, type TestStore } from './test-store.js';

export interface PokerServerSuite {
  store: TestStore;
  server: PokerServer;
  client: PokerClient;
}

/** The poker server on a fresh test store for the calling suite: started before its tests, closed after. Read the fields inside tests and hooks. */
export function usePokerServer(): PokerServerSuite {
  const suite = {} as PokerServerSuite;
  beforeAll(async () => {
    suite.store = await createTestStore();
    suite.server = await startPokerServer(suite.store.options);
    suite.client = suite.server.client;
  });
  afterAll(async () => {
    await suite.server?.app.close();
    await suite.store?.cleanup();
  });
  return suite;
}
