import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Controller, Get, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { EventSourcingModule, inMemory } from '@nest-es/core';
import { EventSourcingHttpModule } from '@nest-es/http';
import { createHttpApp, HTTP_ADAPTERS } from './support/http-adapter.js';

const SLOW_MS = 300;

/** A route of the application's own that takes a while to answer. */
@Controller('slow')
class SlowController {
  @Get()
  async slow(): Promise<{ done: true }> {
    await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
    return { done: true };
  }
}

/** The answer to GET path, or how the request failed. */
function get(url: string): { started: Promise<void>; answer: Promise<string> } {
  let onStarted!: () => void;
  const started = new Promise<void>((resolve) => (onStarted = resolve));
  const answer = new Promise<string>((resolve) => {
    const req = httpRequest(url, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve(`${response.statusCode} ${body}`));
      response.on('error', (error) => resolve(`cut: ${error.message}`));
    });
    req.on('error', (error) => resolve(`cut: ${error.message}`));
    req.end(onStarted);
  });
  return { started, answer };
}

describe.each(HTTP_ADAPTERS)('closing the application on %s', (adapter) => {
  let app: INestApplication;

  beforeEach(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [EventSourcingModule.forRoot({ adapter: inMemory() }), EventSourcingHttpModule.forRoot()],
      controllers: [SlowController],
    }).compile();
    app = await createHttpApp(moduleRef, adapter);
    await app.listen(0, '127.0.0.1');
  });

  it('answers the requests in flight before the server closes its connections', async () => {
    const { port } = app.getHttpServer().address() as AddressInfo;
    const requests = Array.from({ length: 3 }, () => get(`http://127.0.0.1:${port}/slow`));
    await Promise.all(requests.map((r) => r.started));
    // The requests reach the route before the close starts.
    await new Promise((resolve) => setTimeout(resolve, SLOW_MS / 3));
    await app.close();
    expect(await Promise.all(requests.map((r) => r.answer))).toEqual(Array(3).fill('200 {"done":true}'));
  });
});
