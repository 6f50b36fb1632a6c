import { Body, Controller, ForbiddenException, Get, type INestApplication, Post, type Provider } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { connect, type AddressInfo } from 'node:net';
import request from 'supertest';
import { Aggregate, AggregateId, Apply, CommandHandler, EventSourcingModule, inMemory } from '@nest-es/core';
import { Tracing } from '@nest-es/core/internal';
import { type EventSourcingHttpOptions, EventSourcingHttpModule, FASTIFY_ADAPTER_OPTIONS } from '@nest-es/http';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { IsString } from 'class-validator';
import { createHttpApp, HTTP_ADAPTERS, type HttpAdapterName } from './support/http-adapter.js';

/**
 * A host application's own controller beside the framework's modules answers exactly as it does
 * without them: its errors, its headers, its 404s, its body parser errors and the connections Node
 * refuses. The framework's routes keep their coded errors and headers; `appWide` extends them to the app.
 */
@Controller('host')
class HostController {
  @Get('ok')
  ok(): { ok: true } {
    return { ok: true };
  }

  @Get('forbidden')
  forbidden(): never {
    throw new ForbiddenException('no');
  }

  @Get('boom')
  boom(): never {
    throw new Error('boom');
  }

  @Post('echo')
  echo(@Body() body: unknown): unknown {
    return body;
  }
}

class Count {
  @AggregateId() @IsString() counterId!: string;
}

class Counted {}

@Aggregate('counter')
class CounterAggregate {
  initialState(): { count: number } {
    return { count: 0 };
  }

  @CommandHandler(Count, { emits: [Counted], http: true })
  count(): Counted {
    return new Counted();
  }

  @Apply(Counted)
  onCounted(state: { count: number }): void {
    state.count++;
  }
}

/** A tracing that records the requests whose trace context the framework continues. */
class RecordingTracing extends Tracing {
  readonly continued: unknown[] = [];
  span<T>(_name: string, _options: unknown, work: (span: { setAttributes(): void }) => Promise<T>): Promise<T> {
    return work({ setAttributes: () => undefined });
  }
  bind<T>(work: () => Promise<T>): () => Promise<T> {
    return work;
  }
  inject(): void {}
  continueFrom<T>(headers: Record<string, unknown>, work: () => T): T {
    this.continued.push(headers.traceparent);
    return work();
  }
}

const ORIGIN = 'https://app.example';
const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const HELMET_HEADERS = ['x-frame-options', 'content-security-policy', 'x-content-type-options', 'strict-transport-security', 'referrer-policy'];

/**
 * The host app alone, or beside the framework's modules (with a CORS policy and a tracing that
 * records); under a global prefix that leaves `/health/live` out when one is given.
 */
async function boot(adapter: HttpAdapterName, http?: EventSourcingHttpOptions, prefix?: string): Promise<{ app: INestApplication; tracing: RecordingTracing }> {
  const tracing = new RecordingTracing();
  const imports = http ? [EventSourcingModule.forRoot({ adapter: inMemory() }), EventSourcingHttpModule.forRoot({ cors: { origin: ORIGIN }, ...http })] : [];
  const providers: Provider[] = http ? [CounterAggregate] : [];
  const builder = Test.createTestingModule({ imports, controllers: [HostController], providers });
  const moduleRef = await (http ? builder.overrideProvider(Tracing).useValue(tracing) : builder).compile();
  if (!prefix) {
    const app = await createHttpApp(moduleRef, adapter);
    await app.listen(0, '127.0.0.1');
    return { app, tracing };
  }
  // The prefix is set before the app initializes, which createHttpApp does.
  const app = adapter === 'express' ? moduleRef.createNestApplication({ logger: false }) : moduleRef.createNestApplication(new FastifyAdapter(FASTIFY_ADAPTER_OPTIONS), { logger: false });
  app.setGlobalPrefix(prefix, { exclude: ['health/live'] });
  await app.listen(0, '127.0.0.1');
  return { app, tracing };
}

/** Status, headers but the date, and body: everything a client sees. */
async function seen(response: Promise<request.Response>): Promise<{ status: number; headers: Record<string, unknown>; body: unknown }> {
  const { status, headers, text } = await response;
  const { date: _date, ...rest } = headers as Record<string, unknown>;
  return { status, headers: rest, body: text };
}

/** Sends raw bytes and resolves with everything the server answers before it closes the connection. */
function rawExchange(app: INestApplication, bytes: string): Promise<string> {
  const port = (app.getHttpServer().address() as AddressInfo).port;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(bytes));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** What each host request is, as a function of the app, so both apps get the same one. */
const hostRequests: Record<string, (app: INestApplication) => Promise<request.Response>> = {
  'an HttpException (ForbiddenException)': (app) => request(app.getHttpServer()).get('/host/forbidden'),
  'an unknown error': (app) => request(app.getHttpServer()).get('/host/boom'),
  'a success, sent with an Origin and a traceparent': (app) => request(app.getHttpServer()).get('/host/ok').set({ Origin: ORIGIN, traceparent: TRACEPARENT }),
  'a CORS preflight': (app) => request(app.getHttpServer()).options('/host/ok').set({ Origin: ORIGIN, 'Access-Control-Request-Method': 'GET' }),
  'a path no route serves': (app) => request(app.getHttpServer()).get('/nowhere/commands'),
  'a malformed JSON body': (app) => request(app.getHttpServer()).post('/host/echo').set('Content-Type', 'application/json').send('{'),
  'oversized headers': (app) => request(app.getHttpServer()).get('/host/ok').set('X-Big', 'x'.repeat(20_000)),
};

describe.each(HTTP_ADAPTERS)('a host app beside the framework (%s)', (adapter) => {
  let bare: INestApplication;
  let framework: INestApplication;
  let tracing: RecordingTracing;

  beforeAll(async () => {
    bare = (await boot(adapter)).app;
    ({ app: framework, tracing } = await boot(adapter, {}));
  });

  afterAll(async () => {
    await bare?.close();
    await framework?.close();
  });

  it.each(Object.keys(hostRequests))('answers %s on its own route exactly as without the framework', async (name) => {
    const without = await seen(hostRequests[name](bare));
    const beside = await seen(hostRequests[name](framework));
    expect(beside).toEqual(without);
    for (const header of [...HELMET_HEADERS, 'access-control-allow-origin']) expect(beside.headers[header]).toBeUndefined();
  });

  it("keeps Nest's own answers on the host's errors", async () => {
    const forbidden = await request(framework.getHttpServer()).get('/host/forbidden');
    const boom = await request(framework.getHttpServer()).get('/host/boom');
    expect([forbidden.status, forbidden.body]).toEqual([403, { statusCode: 403, message: 'no', error: 'Forbidden' }]);
    expect([boom.status, boom.body]).toEqual([500, { statusCode: 500, message: 'Internal server error' }]);
  });

  it('answers a malformed request the way the server does without the framework', async () => {
    const bytes = 'GET /host/ok HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n';
    expect(await rawExchange(framework, bytes)).toBe(await rawExchange(bare, bytes));
  });

  it('continues the trace context of its own requests only', async () => {
    tracing.continued.length = 0;
    await request(framework.getHttpServer()).get('/host/ok').set('traceparent', TRACEPARENT);
    expect(tracing.continued).toEqual([]);
    await request(framework.getHttpServer()).get('/health/live').set('traceparent', TRACEPARENT);
    expect(tracing.continued).toEqual([TRACEPARENT]);
  });

  it("gives the framework's routes its coded errors, security headers and CORS policy", async () => {
    const http = request(framework.getHttpServer());
    const unknown = await http.post('/commands/counter/c1/Burn').send({});
    const emptyId = await http.post('/commands/counter//Count').send({});
    const unrouted = await http.get('/commands/counter');
    const malformed = await http.post('/commands/counter/c1/Count').set('Content-Type', 'application/json').send('{');
    const preflight = await http.options('/commands/counter/c1/Count').set({ Origin: ORIGIN, 'Access-Control-Request-Method': 'POST' });
    const counted = await http.post('/commands/counter/c1/Count').set('Origin', ORIGIN).send({});
    expect([unknown.status, unknown.body.code, emptyId.status, emptyId.body.code, unrouted.status, unrouted.body.code]).toEqual([404, 'NOT_FOUND', 404, 'NOT_FOUND', 404, 'NOT_FOUND']);
    expect([malformed.status, malformed.body.code]).toEqual([400, 'INVALID_ARGUMENT']);
    expect([preflight.status, preflight.headers['access-control-allow-origin'], counted.status, counted.headers['access-control-allow-origin']]).toEqual([204, ORIGIN, 200, ORIGIN]);
    // A body Express's parser refuses is answered before the headers' middleware runs, as it always was.
    for (const res of [unknown, emptyId, unrouted, counted]) {
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers).toMatchObject({ 'x-frame-options': 'SAMEORIGIN', 'content-security-policy': expect.stringContaining("default-src 'self'") });
    }
  });

  describe('under a global prefix', () => {
    let barePrefixed: INestApplication;
    let prefixed: INestApplication;

    beforeAll(async () => {
      ({ app: barePrefixed } = await boot(adapter, undefined, 'api'));
      ({ app: prefixed } = await boot(adapter, {}, 'api'));
    });

    afterAll(async () => {
      await barePrefixed?.close();
      await prefixed?.close();
    });

    it("follows the framework's routes under the prefix, and those it leaves out", async () => {
      const http = request(prefixed.getHttpServer());
      const unknown = await http.post('/api/commands/counter/c1/Burn').send({});
      const unrouted = await http.get('/api/commands/counter');
      const excluded = await http.get('/health/live');
      const preflight = await http.options('/api/commands/counter/c1/Count').set({ Origin: ORIGIN, 'Access-Control-Request-Method': 'POST' });
      expect([unknown.status, unknown.body.code, unrouted.status, unrouted.body.code, excluded.status]).toEqual([404, 'NOT_FOUND', 404, 'NOT_FOUND', 200]);
      expect([preflight.status, preflight.headers['access-control-allow-origin']]).toEqual([204, ORIGIN]);
      for (const res of [unknown, unrouted, excluded]) expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    });

    it.each(['/api/host/forbidden', '/api/nowhere', '/commands/counter'])('answers %s exactly as without the framework', async (path) => {
      const beside = await seen(request(prefixed.getHttpServer()).get(path));
      expect(beside).toEqual(await seen(request(barePrefixed.getHttpServer()).get(path)));
      expect(beside.headers['x-frame-options']).toBeUndefined();
    });
  });

  describe('with appWide', () => {
    let wide: INestApplication;

    beforeAll(async () => {
      ({ app: wide } = await boot(adapter, { appWide: true }));
    });

    afterAll(async () => {
      await wide?.close();
    });

    it("answers the host's errors, 404s and body errors with the framework's coded body and headers", async () => {
      const http = request(wide.getHttpServer());
      const forbidden = await http.get('/host/forbidden');
      const boom = await http.get('/host/boom');
      const nowhere = await http.get('/nowhere');
      const malformed = await http.post('/host/echo').set('Content-Type', 'application/json').send('{');
      expect(forbidden.body).toEqual({ statusCode: 403, code: 'PERMISSION_DENIED', message: 'no' });
      expect(boom.body).toEqual({ statusCode: 500, code: 'INTERNAL', message: 'internal error; the server log has the details' });
      expect([nowhere.status, nowhere.body.code, malformed.status, malformed.body.code]).toEqual([404, 'NOT_FOUND', 400, 'INVALID_ARGUMENT']);
      for (const res of [forbidden, boom, nowhere, await http.get('/host/ok')]) {
        expect(res.headers['x-powered-by']).toBeUndefined();
        expect(res.headers).toMatchObject({ 'x-frame-options': 'SAMEORIGIN', 'content-security-policy': expect.stringContaining("default-src 'self'") });
      }
      const preflight = await http.options('/host/ok').set({ Origin: ORIGIN, 'Access-Control-Request-Method': 'GET' });
      expect([preflight.status, preflight.headers['access-control-allow-origin']]).toEqual([204, ORIGIN]);
    });

    it('answers oversized headers with 431 and a coded JSON body, and stays up', async () => {
      const res = await request(wide.getHttpServer()).get('/health/live').set('X-Big', 'x'.repeat(20_000));
      expect(res.status).toBe(431);
      expect(res.body).toEqual({ statusCode: 431, code: 'INVALID_ARGUMENT', message: expect.stringContaining('request headers are larger') });
      expect((await request(wide.getHttpServer()).get('/health/live')).status).toBe(200);
    });

    it('answers a malformed request with 400 and a coded JSON body', async () => {
      const answer = await rawExchange(wide, 'GET /health/live HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n');
      expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ statusCode: 400, code: 'INVALID_ARGUMENT', message: 'malformed HTTP request' });
    });
  });
});
