import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { CommandGateway, EventSourcingModule, Projector, OnEvent } from '@nest-es/core';
import { BlueGreenRebuilder, CHECKPOINT_STORE, READ_MODEL_TABLES, type CheckpointStore, type ReadModelTables } from '@nest-es/core/internal';
import { typeorm, type StoreOptions } from '@nest-es/typeorm';
import { JournalAggregate, WriteEntry, EntryWritten } from './support/journal.domain.js';
import { JournalTotals, JournalTotalsProjector } from './support/journal-totals.projector.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { until } from './support/until.js';

/** A projector that declares no tables: it can be rebuilt only in place. */
@Projector('journal-count')
class JournalCountProjector {
  @OnEvent(EntryWritten)
  onWritten(): void {}
}

async function createApp(store: StoreOptions): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ adapter: typeorm(store), processing: { pollIntervalMs: 50 } })],
    providers: [JournalAggregate, JournalTotalsProjector, JournalTotals, JournalCountProjector],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: ['error'] });
  await app.init();
  return app;
}

let markers = 0;

/** Every event committed so far is projected: a new marker, written last, is in the live table. */
async function caughtUp(app: INestApplication): Promise<void> {
  const marker = `zz-marker-${markers++}`;
  await app.get(CommandGateway).send(new WriteEntry(marker, 'x'));
  await until(async () => (await app.get(JournalTotals).all()).some((row) => row.journalId === marker), 'the marker to be projected', 20_000);
}

async function tablesLeft(app: INestApplication, names: string[]): Promise<string[]> {
  const tables = app.get<ReadModelTables>(READ_MODEL_TABLES);
  const missing = await app.get<CheckpointStore>(CHECKPOINT_STORE).run((tx) => tables.missing(tx, names));
  return names.filter((name) => !missing.includes(name));
}

describe('blue/green projection rebuild', () => {
  let store: TestStore;
  let app: INestApplication;

  beforeEach(async () => {
    JournalTotalsProjector.countCharacters = false;
    store = await createTestStore();
    app = await createApp(store.options);
  });

  afterEach(async () => {
    await app?.close();
    await store?.cleanup();
  });

  it('builds a copy while the live table keeps serving and being projected, then switches to it in one step', async () => {
    const gateway = app.get(CommandGateway);
    const totals = app.get(JournalTotals);
    for (let i = 0; i < 300; i++) await gateway.send(new WriteEntry(`j${i % 10}`, 'abc'));
    await caughtUp(app);
    expect((await totals.all()).filter((row) => !row.journalId.startsWith('zz-')).every((row) => row.entries === 30 && row.characters === 0)).toBe(true);

    // The "fixed" code: characters are counted from now on, by the live projector too.
    JournalTotalsProjector.countCharacters = true;
    let flowing = true;
    let sent = 0;
    // Each loop yields to the timers between its calls: better-sqlite3 answers synchronously, so a bare
    // await loop would never let the rebuild's own timers run.
    const writer = (async () => {
      while (flowing) {
        await gateway.send(new WriteEntry(`j${sent++ % 10}`, 'abc'));
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const reads: Array<number | string> = [];
    const reader = (async () => {
      while (flowing) {
        try {
          const rows = await totals.all();
          reads.push(rows.reduce((sum, row) => sum + row.entries, 0));
        } catch (error) {
          reads.push(String(error));
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const phases = new Set<string>();
    const summary = await app.get(BlueGreenRebuilder).rebuild('journal-totals', (progress) => phases.add(progress.phase));
    flowing = false;
    await Promise.all([writer, reader]);

    // Never an error, never an empty or shrinking table: the old copy served until the new one took over.
    expect(reads.filter((read) => typeof read === 'string')).toEqual([]);
    const counts = reads as number[];
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(301);
    expect(phases).toEqual(new Set(['building', 'switching']));
    expect(summary.copy).toMatch(/^b[0-9a-z]+$/);

    await caughtUp(app);
    const rows = (await totals.all()).filter((row) => !row.journalId.startsWith('zz-'));
    // Recomputed with the fixed code from the first event: every entry counted once, with its characters.
    expect(rows.reduce((sum, row) => sum + row.entries, 0)).toBe(300 + sent);
    expect(rows.every((row) => row.characters === row.entries * 3)).toBe(true);
    expect(await tablesLeft(app, ['journal_totals', 'journal_totals__previous', `journal_totals__${summary.copy}`])).toEqual(['journal_totals', 'journal_totals__previous']);
    expect(await app.get(BlueGreenRebuilder).hasPrevious('journal-totals')).toBe(true);
  });

  it('switches back to the previous copy, which catches up from where it was put aside; switching back again undoes that', async () => {
    const gateway = app.get(CommandGateway);
    const totals = app.get(JournalTotals);
    for (let i = 0; i < 20; i++) await gateway.send(new WriteEntry('j1', 'abcd'));
    await caughtUp(app);
    JournalTotalsProjector.countCharacters = true;
    await app.get(BlueGreenRebuilder).rebuild('journal-totals');
    await caughtUp(app);
    expect((await totals.all()).find((row) => row.journalId === 'j1')).toEqual({ journalId: 'j1', entries: 20, characters: 80 });

    for (let i = 0; i < 5; i++) await gateway.send(new WriteEntry('j1', 'abcd'));
    await app.get(BlueGreenRebuilder).switchBack('journal-totals');
    await until(async () => (await totals.all()).find((row) => row.journalId === 'j1')?.entries === 25, 'the previous copy to catch up', 20_000);
    // The previous copy: its first 20 entries counted without characters, the 5 since with them.
    expect((await totals.all()).find((row) => row.journalId === 'j1')).toEqual({ journalId: 'j1', entries: 25, characters: 20 });

    await app.get(BlueGreenRebuilder).switchBack('journal-totals');
    await until(async () => (await totals.all()).find((row) => row.journalId === 'j1')?.entries === 25, 'the rebuilt copy again', 20_000);
    expect((await totals.all()).find((row) => row.journalId === 'j1')).toEqual({ journalId: 'j1', entries: 25, characters: 100 });
  });

  it('survives a restart after the switch: the live table stays the new one and no table is created twice', async () => {
    const gateway = app.get(CommandGateway);
    for (let i = 0; i < 10; i++) await gateway.send(new WriteEntry('j2', 'ab'));
    await caughtUp(app);
    JournalTotalsProjector.countCharacters = true;
    await app.get(BlueGreenRebuilder).rebuild('journal-totals');
    await app.close();
    app = await createApp(store.options);
    await app.get(CommandGateway).send(new WriteEntry('j2', 'ab'));
    await until(async () => (await app.get(JournalTotals).all()).find((row) => row.journalId === 'j2')?.entries === 11, 'the new entry', 20_000);
    expect((await app.get(JournalTotals).all()).find((row) => row.journalId === 'j2')).toEqual({ journalId: 'j2', entries: 11, characters: 22 });
  });

  it('drops what an unfinished build left before it builds again', async () => {
    const checkpoints = app.get<CheckpointStore>(CHECKPOINT_STORE);
    await app.get(CommandGateway).send(new WriteEntry('j3', 'a'));
    await caughtUp(app);
    // What a process that died mid-build leaves: the copy's checkpoint and table.
    await checkpoints.save('journal-totals@bleftover', 1);
    await checkpoints.run((tx) => app.get(JournalTotalsProjector).createTables(tx as never, (name: string) => `${name}__bleftover`));
    expect(await tablesLeft(app, ['journal_totals__bleftover'])).toEqual(['journal_totals__bleftover']);
    await app.get(BlueGreenRebuilder).rebuild('journal-totals');
    expect(await tablesLeft(app, ['journal_totals__bleftover'])).toEqual([]);
    expect((await checkpoints.loadAll()).has('journal-totals@bleftover')).toBe(false);
  });

  it('refuses what it cannot do, saying why', async () => {
    const rebuilder = app.get(BlueGreenRebuilder);
    await expect(rebuilder.rebuild('nope')).rejects.toThrow("unknown projector 'nope'; known: journal-totals, journal-count");
    await expect(rebuilder.rebuild('journal-count')).rejects.toThrow("projector 'journal-count' declares no tables: add { tables: [...] } and createTables(tx, table) to rebuild it blue/green");
    await expect(rebuilder.switchBack('journal-totals')).rejects.toThrow("projector 'journal-totals' has no previous copy to switch back to");
    const first = rebuilder.rebuild('journal-totals');
    await expect(rebuilder.rebuild('journal-totals')).rejects.toThrow("projector 'journal-totals' is already being rebuilt; wait for it to switch");
    await first;
    expect(await rebuilder.hasPrevious('journal-totals')).toBe(true);
    // Someone dropped the previous copy's table by hand: no way back, said so (not a failed rename).
    await app.get<CheckpointStore>(CHECKPOINT_STORE).run((tx) => app.get<ReadModelTables>(READ_MODEL_TABLES).drop(tx, ['journal_totals__previous']));
    expect(await rebuilder.hasPrevious('journal-totals')).toBe(false);
    await expect(rebuilder.switchBack('journal-totals')).rejects.toThrow("projector 'journal-totals' has no previous copy to switch back to");
  });
});
