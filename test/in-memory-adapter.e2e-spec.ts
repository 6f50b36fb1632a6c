import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { CHECKPOINT_STORE, EVENT_STORE_ADAPTER, InMemoryEventStore, ProjectionRebuilder } from '@nest-es/core/internal';
import { CommandGateway, EVENT_STORE, EventSourcingModule, OnEvent, Projector, SyncMode, inMemory, type ProjectionContext } from '@nest-es/core';
import { type CheckpointStore } from '@nest-es/core/adapter';
import { exposedForTests } from '@nest-es/core/testing';
import { AddLine, AlwaysParkMerge, LineAdded, LinesCommuteMerge, NotebookAggregate } from './support/notebook.domain.js';
import { EventSourcingHttpModule } from '@nest-es/http';

@Projector('line-counts')
class LineCounts {
  readonly counts = new Map<string, number>();
  transactions: unknown[] = [];

  @OnEvent(LineAdded)
  onLine(_event: LineAdded, { envelope, tx }: ProjectionContext) {
    this.transactions.push(tx);
    this.counts.set(envelope.aggregateId, (this.counts.get(envelope.aggregateId) ?? 0) + 1);
  }
}

describe('the framework on the in-memory adapter (no database at all)', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [EventSourcingModule.forRoot({ adapter: inMemory(), metrics: true }), EventSourcingHttpModule.forRoot({ aggregateReads: true })],
      providers: [exposedForTests(NotebookAggregate), LinesCommuteMerge, AlwaysParkMerge, LineCounts],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });

  afterAll(() => app?.close());

  it('runs commands, merges, projections with checkpoints and the HTTP routes on memory', async () => {
    expect(app.get(EVENT_STORE_ADAPTER)).toBeInstanceOf(InMemoryEventStore);
    const gateway = app.get(CommandGateway);
    const line = (text: string) => Object.assign(new AddLine(), { notebookId: 'm1', text });
    await gateway.send(line('a'));
    await gateway.send(line('b'));
    const merged = await gateway.send(line('c'), { expectedSequence: 1, syncMode: SyncMode.SIMPLE });
    expect(merged.sequence).toBe(3);

    expect(app.get(LineCounts).counts.get('m1')).toBe(3);
    expect(app.get(LineCounts).transactions).toEqual([undefined, undefined, undefined]);
    expect(await app.get<CheckpointStore>(CHECKPOINT_STORE).load('line-counts')).toBe(merged.events[0].position);
    const http = request(app.getHttpServer());
    expect((await http.get('/aggregates/notebook/m1')).body).toEqual({ sequence: 3, state: { title: '', lines: ['a', 'b', 'c'] } });
    expect((await http.get('/aggregates/notebook/m1/events')).body.events).toHaveLength(3);
    expect(await app.get(EVENT_STORE).headPosition()).toBe(3);
  });

  it('refuses to boot without an adapter, and says which to give', () => {
    expect(() => EventSourcingModule.forRoot({} as never)).toThrow(/needs an adapter: forRoot\(\{adapter: inMemory\(\)\}\)/);
  });
});

/** Declares its tables, creates them with no database to create them in, and has no reset(tx). */
@Projector('line-table', { tables: ['line_table'] })
class LineTable {
  async createTables(): Promise<void> {}

  @OnEvent(LineAdded)
  onLine(): void {}
}

describe('an in-place rebuild on the in-memory adapter', () => {
  it('refuses a projector with tables and no reset(tx): memory has no tables to drop', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [EventSourcingModule.forRoot({ adapter: inMemory() })],
      providers: [NotebookAggregate, LinesCommuteMerge, AlwaysParkMerge, LineTable],
    }).compile();
    const app = await moduleRef.createNestApplication({ logger: false }).init();
    try {
      await expect(app.get(ProjectionRebuilder).rebuild('line-table')).rejects.toThrow(
        "projector 'line-table' has no reset(tx), and this store adapter cannot drop its tables: add a reset(tx) to rebuild it in place",
      );
    } finally {
      await app.close();
    }
  });
});
