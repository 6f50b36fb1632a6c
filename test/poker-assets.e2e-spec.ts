// The web page's static files, as a browser asks for them.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { createPokerApp } from './support/poker-app.js';
import { createTestStore, type TestStore } from './support/test-store.js';

let store: TestStore;
let app: NestFastifyApplication;

beforeAll(async () => {
  store = await createTestStore();
  app = await createPokerApp(store.options);
});

afterAll(async () => {
  await app?.close();
  await store?.cleanup();
});

it('serves a favicon, which browsers fetch unasked', async () => {
  const response = await request(app.getHttpServer()).get('/favicon.ico').expect(200);
  expect(response.headers['content-type']).toMatch(/^image\//);
  expect(Buffer.from(response.body as Buffer).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
});
