import SwaggerParser from '@apidevtools/swagger-parser';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { addCommandOperations } from '@nest-es/http';
import { createLiveApp } from './support/live-app.js';
import { createTestStore, type TestStore } from './support/test-store.js';

type Schema = Record<string, any>;

/** The live route in the OpenAPI document `addCommandOperations` completes: its stream, cursors and refusals. */
describe('the live events route in the OpenAPI document', () => {
  let store: TestStore;
  let app: INestApplication;
  let document: Schema;

  beforeAll(async () => {
    store = await createTestStore();
    ({ app } = await createLiveApp('express', store.options));
    document = addCommandOperations(SwaggerModule.createDocument(app, new DocumentBuilder().setTitle('live').build()), app) as Schema;
  });

  afterAll(async () => {
    await app?.close();
    await store?.cleanup();
  });

  it('describes a text/event-stream answer, Last-Event-ID and after, and the read routes\' error answers', async () => {
    const operation = document.paths['/aggregates/{aggregateType}/{aggregateId}/events/live'].get;
    expect(Object.keys(operation.responses['200'].content)).toEqual(['text/event-stream']);
    expect(operation.parameters.map((parameter: Schema) => `${parameter.in}:${parameter.name}`)).toEqual([
      'path:aggregateType',
      'path:aggregateId',
      'header:Last-Event-ID',
      'query:after',
    ]);
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '401', '403', '404', '429', '503']);
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });
});
