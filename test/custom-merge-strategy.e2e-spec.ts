import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { Aggregate, CommandHandler, EventSourcingModule } from '@nest-es/core';
import { exposedForTests } from '@nest-es/core/testing';
import { AddLine, AlwaysParkMerge, LineAdded, LinesCommuteMerge, NotebookAggregate } from './support/notebook.domain.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { typeorm } from '@nest-es/typeorm';
import { EventSourcingHttpModule } from '@nest-es/http';

describe('a merge strategy of the application, registered and chosen like the built-ins', () => {
  let store: TestStore;
  let app: INestApplication;
  let http: ReturnType<typeof request>;

  beforeAll(async () => {
    store = await createTestStore();
    const moduleRef = await Test.createTestingModule({
      imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options), metrics: true }), EventSourcingHttpModule.forRoot({ aggregateReads: true })],
      providers: [exposedForTests(NotebookAggregate), LinesCommuteMerge, AlwaysParkMerge],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    http = request(app.getHttpServer());
  });

  afterAll(async () => {
    await app?.close();
    await store.cleanup();
  });

  const send = (id: string, command: string, body: object, headers: Record<string, string> = {}) =>
    http.post(`/commands/notebook/${id}/${command}`).set(headers).send(body);
  const at = (expected: number) => ({ 'Expected-Sequence': String(expected) });

  it('runs the aggregate-wide strategy on a mismatch, with the command, both states and the events in between', async () => {
    await send('n1', 'RenameNotebook', { title: 'Ideas' }); // 1
    await send('n1', 'AddLine', { text: 'a' }); // 2
    await send('n1', 'AddLine', { text: 'b' }); // 3
    const strategy = app.get(LinesCommuteMerge);

    const stale = await send('n1', 'AddLine', { text: 'c' }, at(1));
    expect(stale.status).toBe(200);
    expect(stale.body.sequence).toBe(4);
    expect(strategy.seen.at(-1)).toEqual({ command: 'AddLine', expected: 1, actual: 3, between: ['LineAdded', 'LineAdded'], titleSeen: 'Ideas' });

    const refused = await send('n1', 'AddLine', { text: 'd' }, at(0));
    expect(refused.status).toBe(412);
    expect(refused.body).toMatchObject({ code: 'SEQUENCE_MISMATCH', expectedSequence: 0, actualSequence: 4, others: ['NotebookRenamed'] });
    expect(refused.body.message).toMatch(/1 event\(s\) other than LineAdded since sequence 0/);
    expect((await http.get('/aggregates/notebook/n1')).body.state.lines).toEqual(['a', 'b', 'c']);
  });

  it('runs a per-handler strategy, and a per-call one named in any case', async () => {
    await send('n2', 'AddLine', { text: 'a' }); // 1
    await send('n2', 'AddLine', { text: 'b' }); // 2
    const parked = await send('n2', 'RenameNotebook', { title: 'x' }, at(1));
    expect(parked.status).toBe(409);
    expect(parked.body).toMatchObject({ code: 'ABORTED', deadLetterId: expect.any(String) });

    const perCall = await send('n2', 'AddLine', { text: 'c' }, { ...at(1), 'Merge-Strategy': 'ALWAYS-PARK' });
    expect(perCall.status).toBe(409);
    expect(perCall.body.code).toBe('ABORTED');

    const builtIn = await send('n2', 'AddLine', { text: 'c' }, { ...at(1), 'Merge-Strategy': 'strict' });
    expect(builtIn.status).toBe(412);

    const unknown = await send('n2', 'AddLine', { text: 'c' }, { ...at(1), 'Merge-Strategy': 'yolo' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/merge strategy must be one of commutative, strict, aggregate_handles, manual, lines-commute, always-park, got 'yolo'/);
  });

  it('fails the boot on a strategy name nobody registered', async () => {
    @Aggregate('stray', { mergeStrategy: 'nobody' })
    class StrayAggregate {
      initialState() {
        return {};
      }

      @CommandHandler(AddLine, { emits: [LineAdded], mergeStrategy: 'nor-this' })
      add(): LineAdded {
        return new LineAdded('x');
      }
    }
    const other = await createTestStore();
    try {
      const moduleRef = await Test.createTestingModule({
        imports: [EventSourcingModule.forRoot({ adapter: typeorm(other.options) })],
        providers: [StrayAggregate],
      }).compile();
      const failing = moduleRef.createNestApplication({ logger: false });
      await expect(failing.init()).rejects.toThrow(/StrayAggregate uses merge strategy 'nobody', which is not registered[\s\S]*StrayAggregate.add uses merge strategy 'nor-this'/);
      await failing.close().catch(() => undefined);
    } finally {
      await other.cleanup();
    }
  });
});
