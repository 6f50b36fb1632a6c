// The OpenAPI document at /docs-json: valid OpenAPI, one operation per command with its body schema,
// headers and error responses, and every documented command accepted when sent as documented.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { createPokerApp } from './support/poker-app.js';
import { createTestStore, type TestStore } from './support/test-store.js';

type Schema = Record<string, any>;
interface Operation {
  parameters: { name: string; in: string }[];
  requestBody: { content: { 'application/json': { schema: Schema } } };
  responses: Record<string, { content?: { 'application/json': { schema: Schema } } }>;
}

let store: TestStore;
let app: NestFastifyApplication;
let document: Schema;
let token: string;

beforeAll(async () => {
  store = await createTestStore();
  app = await createPokerApp(store.options);
  document = (await request(app.getHttpServer()).get('/docs-json').expect(200)).body as Schema;
  token = (await request(app.getHttpServer()).post('/auth/register').send({ displayName: 'Doc' }).expect(200)).body.token;
});

afterAll(async () => {
  await app?.close();
  await store?.cleanup();
});

function resolve(schema: Schema): Schema {
  if (typeof schema.$ref !== 'string') return schema;
  return resolve(document.components.schemas[schema.$ref.replace('#/components/schemas/', '')]);
}

/**
 * A value that satisfies the schema, built from what the document says (only required properties);
 * `n` makes the items of an array differ.
 */
function sample(given: Schema, n = 0): unknown {
  const schema = resolve(given);
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((name: string) => [name, sample(schema.properties[name], n)]));
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, (_, index) => sample(schema.items, index));
    case 'integer':
    case 'number': {
      const low = schema.minimum === undefined ? 1 : schema.minimum + (schema.exclusiveMinimum === true ? 1 : 0);
      return Math.min(Math.max(low, 1) + n, schema.maximum ?? Number.MAX_SAFE_INTEGER);
    }
    case 'boolean':
      return true;
    default:
      if (schema.format === 'email') return 'someone@example.com';
      return `${n}`.padEnd(Math.max(schema.minLength ?? 1, 1), 'x');
  }
}

function commandOperations(): [string, Operation][] {
  return Object.entries(document.paths as Record<string, { post?: Operation }>)
    .filter(([path, item]) => path.startsWith('/commands/') && item.post)
    .map(([path, item]) => [path, item.post!]);
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it("names the project and the framework's version, and shows the command route whole", () => {
    const core = JSON.parse(readFileSync(new URL('../libs/core/package.json', import.meta.url), 'utf8')) as { version: string };
    expect(document.info).toMatchObject({ title: 'The nest-es poker app', version: core.version });
    expect(document.info.description).toContain('POST /commands/{aggregateType}/{aggregateId}/{commandType}');
  });

  it('documents each command with its body schema, headers and error responses instead of the generic route', () => {
    expect(document.paths['/commands/{aggregateType}/{aggregateId}/{commandType}']).toBeUndefined();
    expect(document.paths['/commands/player/{aggregateId}/DepositFunds']).toBeUndefined();
    const deposit = document.paths['/commands/player/{aggregateId}/WithdrawFunds'].post as Operation;
    expect(resolve(deposit.requestBody.content['application/json'].schema)).toMatchObject({
      properties: { amount: { type: 'integer', minimum: 0, exclusiveMinimum: true } },
      required: ['amount'],
    });
    expect(resolve(deposit.requestBody.content['application/json'].schema).properties.playerId).toBeUndefined();
    expect(deposit.parameters.map((parameter) => `${parameter.in}:${parameter.name}`)).toEqual([
      'path:aggregateId',
      'header:Command-Id',
      'header:Correlation-Id',
      'header:Expected-Sequence',
      'header:Sync-Mode',
      'header:Merge-Strategy',
    ]);
    expect(Object.keys(deposit.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '412', '415', '429', '503', '504']);
    expect(Object.keys(document.paths['/aggregates/{aggregateType}/{aggregateId}'].get.responses).sort()).toEqual(['200', '400', '401', '403', '404', '429', '503']);
    const paging = document.paths['/aggregates/{aggregateType}/{aggregateId}/events'].get.parameters.filter((parameter: { in: string }) => parameter.in === 'query');
    expect(paging).toEqual([
      expect.objectContaining({ name: 'afterSequence', required: false, schema: expect.objectContaining({ type: 'integer', minimum: 0 }) }),
      expect.objectContaining({ name: 'limit', required: false, schema: expect.objectContaining({ type: 'integer', minimum: 1, maximum: 1000 }) }),
    ]);
    expect(resolve(document.paths['/tables/{tableId}/buy-in'].post.requestBody.content['application/json'].schema)).toMatchObject({
      required: expect.arrayContaining(['playerId', 'seat', 'amount']),
    });
  });

  it('accepts every documented command sent as documented: never a 400 or a 500, errors as documented', async () => {
    const operations = commandOperations();
    expect(operations.length).toBeGreaterThanOrEqual(10);
    const refused: unknown[] = [];
    for (const [path, operation] of operations) {
      const body = sample(operation.requestBody.content['application/json'].schema);
      const response = await request(app.getHttpServer())
        .post(path.replace('{aggregateId}', `doc-${randomUUID()}`))
        .set('Command-Id', randomUUID())
        .set('Sync-Mode', 'simple')
        .set('Authorization', `Bearer ${token}`)
        .send(body as object);
      const documented = operation.responses[String(response.status)]?.content?.['application/json'].schema;
      const codes = response.status === 200 ? [] : ((documented && resolve(documented).allOf?.[1].properties.code.enum) ?? []);
      if (response.status === 400 || (response.status !== 200 && !codes.includes(response.body.code))) {
        refused.push({ path, body, status: response.status, reply: response.body });
      }
    }
    expect(refused).toEqual([]);
  });

  it('lets "Try it out" register a player and withdraw with the token it gets', async () => {
    const server = app.getHttpServer();
    const { playerId, token: own } = (await request(server).post('/auth/register').send({ displayName: 'Try' }).expect(200)).body;
    const withdraw = await request(server).post(`/commands/player/${playerId}/WithdrawFunds`).set('Authorization', `Bearer ${own}`).send({ amount: 250 }).expect(200);
    expect(withdraw.body).toMatchObject({ aggregateType: 'player', aggregateId: playerId, sequence: 3, events: [{ type: 'FundsWithdrawn' }] });
  });
});
