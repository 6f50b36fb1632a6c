import { jestGlobals } from './jest-globals.js';
import { randomUUID } from 'node:crypto';
import type { EventMetadata, NewEvent, StoredEvent, StreamId } from '../../model/event-envelope.js';
import { sliceOfHash, stringHashCode } from '../../model/key-partition.js';
import type { AppendRequest, AppendResult, CapableEventStore } from '../../store/event-store.js';
import { EVENT_STORE_CAPABILITIES, type AdapterEventStore, type EventStoreCapability } from '../../store/event-store-capabilities.js';
import { ConcurrencyError, DuplicateCommandError, DuplicateExternalIdError } from '../../store/store-errors.js';
import type { ContractSubject } from './contract-subject.js';

/**
 * The EventStore contract as a jest suite, for any adapter: `describeEventStoreContract('mine',
 * async () => ({store, close}))`. The store must start empty. With `twoProcesses`, the subject's
 * `second()` opens another store on the same storage (as a second process would) for one more case.
 */
export interface EventStoreContractOptions {
  /** Run the cases that need a second store on the same storage (the subject's `second()`). */
  twoProcesses?: boolean;
  /** The optional methods the store has, whose cases run (default: all of them). */
  capabilities?: readonly EventStoreCapability[];
}

export function describeEventStoreContract(name: string, factory: () => Promise<ContractSubject<AdapterEventStore>>, options: EventStoreContractOptions = {}): void {
  const { afterAll, beforeAll, describe, expect, it } = jestGlobals();
  let subject: ContractSubject<AdapterEventStore>;
  // Cases of a capability run only when the options say the store has it.
  let store: CapableEventStore;
  const capabilities = new Set(options.capabilities ?? (Object.keys(EVENT_STORE_CAPABILITIES) as EventStoreCapability[]));
  const given = (capability: EventStoreCapability) => (capabilities.has(capability) ? it : it.skip);

  const newStream = (aggregateType = 'account'): StreamId => ({ aggregateType, aggregateId: randomUUID() });

  function event(type: string, payload: unknown, metadata: Partial<EventMetadata> = {}): NewEvent {
    return {
      type,
      payload,
      metadata: { eventId: randomUUID(), commandId: null, correlationId: 'correlation-1', causationId: null, ...metadata },
    };
  }

  const deposited = (amount: number, metadata?: Partial<EventMetadata>) => event('Deposited', { amount }, metadata);

  /** Settles every promise; the outcome of each, in order. */
  async function settle<T>(promises: Promise<T>[]): Promise<{ value?: T; error?: unknown }[]> {
    return (await Promise.allSettled(promises)).map((outcome) =>
      outcome.status === 'fulfilled' ? { value: outcome.value } : { error: outcome.reason as unknown },
    );
  }

  async function readEverythingAfter(position: number, limit: number): Promise<StoredEvent[]> {
    const all: StoredEvent[] = [];
    for (let batch = await store.readAll({ afterPosition: position, limit }); batch.length > 0; ) {
      all.push(...batch);
      batch = await store.readAll({ afterPosition: batch[batch.length - 1].position, limit });
    }
    return all;
  }

  describe(`EventStore contract (${name})`, () => {
    beforeAll(async () => {
      subject = await factory();
      store = subject.store as CapableEventStore;
    });

    afterAll(async () => {
      await subject?.close();
    });

    it('starts empty', async () => {
      expect(await store.headPosition()).toBe(0);
      expect(await store.readAll()).toEqual([]);
      expect(await store.streamSequence(newStream())).toBe(0);
      expect(await store.readStream(newStream())).toEqual([]);
    });

    it('appends events and reads them back with their metadata', async () => {
      const stream = newStream();
      const occurredAt = new Date('2024-05-01T12:34:56.789Z');
      const first = event('Opened', { owner: 'Ada', limits: [1, 2.5, null], note: 'naïve ✓ "quoted" \\ back' }, {
        commandId: 'open-1',
        causationId: 'cause-1',
        tenant: 'acme',
        trace: { span: 7 },
      });
      const before = Date.now();
      const result = await store.append({
        stream,
        expectedSequence: 0,
        events: [{ ...first, schemaVersion: 2, occurredAt }, deposited(100)],
      });
      const after = Date.now();

      expect(result.stream).toEqual(stream);
      expect(result.sequence).toBe(2);
      expect(result.events.map((e) => e.sequence)).toEqual([1, 2]);
      expect(result.events[1].position).toBeGreaterThan(result.events[0].position);
      expect(result.events[0]).toMatchObject({ type: 'Opened', schemaVersion: 2, occurredAt, ...stream });
      expect(result.events[1].schemaVersion).toBe(1);
      expect(result.events[1].occurredAt.getTime()).toBeGreaterThanOrEqual(before);
      expect(result.events[1].occurredAt.getTime()).toBeLessThanOrEqual(after);

      const read = await store.readStream(stream);
      expect(read).toEqual(result.events);
      expect(read[0].metadata).toEqual(first.metadata);
      expect(read[0].payload).toEqual(first.payload);
      expect(await store.streamSequence(stream)).toBe(2);
      expect(await store.readStream(stream, { afterSequence: 1 })).toEqual([result.events[1]]);
      expect(await store.readStream(stream, { toSequence: 1 })).toEqual([result.events[0]]);
    });

    it('stores a null or missing payload as null', async () => {
      const stream = newStream();
      await store.append({ stream, expectedSequence: 0, events: [event('Pinged', null), event('Pinged', undefined)] });
      expect((await store.readStream(stream)).map((e) => e.payload)).toEqual([null, null]);
    });

    it('refuses a payload it could not read back as written, naming the field, and stores nothing of the request', async () => {
      const cyclic: Record<string, unknown> = { name: 'loop' };
      cyclic.self = cyclic;
      const deep = JSON.parse(`${'{"a":'.repeat(100)}1${'}'.repeat(100)}`) as unknown;
      const cases: [unknown, string][] = [
        [{ balance: Infinity }, 'Odd.balance'],
        [{ nested: { list: [1, -Infinity] } }, 'Odd.nested.list[1]'],
        [{ amount: Number.NaN }, 'Odd.amount'],
        [{ big: 10n }, 'Odd.big'],
        [{ note: 'nul \u0000 inside' }, 'Odd.note'],
        [{ note: 'lone \ud800 surrogate' }, 'Odd.note'],
        [{ ['key\u0000']: 1 }, 'Odd."key\\u0000"'],
        [{ seen: new Set([1]) }, 'Odd.seen'],
        [cyclic, 'Odd.self'],
        [deep, 'Odd' + '.a'.repeat(64)],
      ];
      const stream = newStream();
      for (const [payload, field] of cases) {
        const error = await store.append({ stream, expectedSequence: 0, events: [deposited(1), event('Odd', payload)] }).catch((e: unknown) => e);
        expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field } });
      }
      const metadataError = await store
        .append({ stream, expectedSequence: 0, events: [event('Fine', {}, { tag: Infinity })] })
        .catch((e: unknown) => e);
      expect(metadataError).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'Fine metadata.tag' } });
      expect(await store.streamSequence(stream)).toBe(0);
      // Emoji (surrogate pairs), other control characters and Dates are fine.
      const fine = await store.append({ stream, expectedSequence: 0, events: [event('Fine', { text: '🂡 \u0001', at: new Date(0) })] });
      expect((await store.readStream(stream))[0].payload).toEqual({ text: '🂡 \u0001', at: '1970-01-01T00:00:00.000Z' });
      expect(fine.sequence).toBe(1);
    });

    it('appends all events of a request or none', async () => {
      const stream = newStream();
      const reused = randomUUID();
      const bystander = newStream();
      // The third event reuses an event id, so its insert fails after two rows went in.
      const [broken, other] = await settle([
        store.append({
          stream,
          expectedSequence: 0,
          events: [deposited(1, { eventId: reused }), deposited(2), deposited(3, { eventId: reused })],
        }),
        store.append({ stream: bystander, expectedSequence: 0, events: [deposited(4)] }),
      ]);

      expect(broken.error).toBeDefined();
      expect(await store.readStream(stream)).toEqual([]);
      expect(await store.streamSequence(stream)).toBe(0);
      expect(other.value?.sequence).toBe(1);
      expect(await store.streamSequence(bystander)).toBe(1);
    });

    it('refuses a stale expected sequence with ConcurrencyError and writes nothing', async () => {
      const stream = newStream();
      await store.append({ stream, expectedSequence: 0, events: [deposited(1), deposited(2)] });

      const error = await store.append({ stream, expectedSequence: 1, events: [deposited(3)] }).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(ConcurrencyError);
      expect(error).toMatchObject({ stream, expectedSequence: 1, actualSequence: 2 });
      expect((await store.readStream(stream)).map((e) => e.payload)).toEqual([{ amount: 1 }, { amount: 2 }]);
    });

    it('refuses an expected sequence ahead of the stream with ConcurrencyError and writes nothing', async () => {
      const stream = newStream();
      await store.append({ stream, expectedSequence: 0, events: [deposited(1)] });

      const error = await store.append({ stream, expectedSequence: 5, events: [deposited(2)] }).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(ConcurrencyError);
      expect(error).toMatchObject({ expectedSequence: 5, actualSequence: 1 });
      expect(await store.streamSequence(stream)).toBe(1);
      const fresh = await store.append({ stream: newStream(), expectedSequence: 3, events: [deposited(1)] }).catch((e: unknown) => e);
      expect(fresh).toMatchObject({ expectedSequence: 3, actualSequence: 0 });
    });

    it('lets exactly one of concurrent appends at the same sequence win', async () => {
      const stream = newStream();
      for (const expectedSequence of [0, 1, 2]) {
        const outcomes = await settle(
          Array.from({ length: 8 }, (_, writer) =>
            store.append({ stream, expectedSequence, events: [deposited(writer)] }),
          ),
        );
        expect(outcomes.filter((o) => o.value !== undefined)).toHaveLength(1);
        for (const { error } of outcomes.filter((o) => o.error !== undefined)) {
          expect(error).toBeInstanceOf(ConcurrencyError);
          expect(error).toMatchObject({ expectedSequence, actualSequence: expectedSequence + 1 });
        }
      }
      expect((await store.readStream(stream)).map((e) => e.sequence)).toEqual([1, 2, 3]);
    });

    it('keeps a stream gapless and duplicate-free under writers that retry on conflict', async () => {
      const stream = newStream();
      const writers = 6;
      const perWriter = 5;
      const writer = async (id: number) => {
        for (let i = 0; i < perWriter; ) {
          const expectedSequence = await store.streamSequence(stream);
          try {
            await store.append({ stream, expectedSequence, events: [event('Noted', { writer: id, i })] });
            i++;
          } catch (error) {
            if (!(error instanceof ConcurrencyError)) throw error;
          }
        }
      };
      await Promise.all(Array.from({ length: writers }, (_, id) => writer(id)));

      const events = await store.readStream(stream);
      expect(events.map((e) => e.sequence)).toEqual(Array.from({ length: writers * perWriter }, (_, i) => i + 1));
      const positions = events.map((e) => e.position);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      const written = events.map((e) => JSON.stringify(e.payload));
      expect(new Set(written).size).toBe(writers * perWriter);
    });

    it('commits a burst of 200 appends, failing only the conflicting ones', async () => {
      const taken = Array.from({ length: 4 }, () => newStream());
      for (const stream of taken) await store.append({ stream, expectedSequence: 0, events: [deposited(1)] });
      const usedCommand = newStream();
      await store.append({ stream: usedCommand, expectedSequence: 0, events: [deposited(1)], commandId: 'cmd-used' });
      const reusedEventId = randomUUID();
      await store.append({ stream: newStream(), expectedSequence: 0, events: [deposited(1, { eventId: reusedEventId })] });

      const requests: AppendRequest[] = Array.from({ length: 200 }, (_, i) => ({
        stream: newStream(`burst-${i % 3}`),
        expectedSequence: 0,
        events: [deposited(i), deposited(i + 1)],
        commandId: `burst-${i}`,
      }));
      const staleAt = [3, 50, 120, 199];
      staleAt.forEach((index, k) => (requests[index] = { ...requests[index], stream: taken[k] }));
      const duplicateAt = 77;
      requests[duplicateAt] = { ...requests[duplicateAt], stream: usedCommand, expectedSequence: 1, commandId: 'cmd-used' };
      const badRowAt = 150; // its second event reuses a stored event id: the database refuses the row
      requests[badRowAt] = {
        ...requests[badRowAt],
        events: [deposited(1), deposited(2, { eventId: reusedEventId })],
      };

      const outcomes = await settle(requests.map((request) => store.append(request)));

      outcomes.forEach((outcome, index) => {
        if (staleAt.includes(index)) {
          expect(outcome.error).toBeInstanceOf(ConcurrencyError);
          expect(outcome.error).toMatchObject({ expectedSequence: 0, actualSequence: 1 });
        } else if (index === duplicateAt) {
          expect(outcome.error).toBeInstanceOf(DuplicateCommandError);
        } else if (index === badRowAt) {
          expect(outcome.error).toBeDefined();
        } else {
          expect(outcome.error).toBeUndefined();
          expect(outcome.value?.sequence).toBe(2);
        }
      });
      for (const [index, request] of requests.entries()) {
        const stored = await store.readStream(request.stream);
        if (staleAt.includes(index) || index === duplicateAt) expect(stored).toHaveLength(1);
        else if (index === badRowAt) expect(stored).toHaveLength(0);
        else {
          expect(stored.map((e) => e.payload)).toEqual([{ amount: index }, { amount: index + 1 }]);
          expect(stored).toEqual((outcomes[index].value as AppendResult).events);
        }
      }
    });

    const twoProcesses = options.twoProcesses ? it : it.skip;
    twoProcesses('keeps streams consistent between two stores on one storage (two processes)', async () => {
      const second = await subject.second!();
      try {
        const other = second.store;
        const stream = newStream();
        for (const expectedSequence of [0, 1, 2]) {
          const outcomes = await settle(
            [store, other, store, other].map((s, i) => s.append({ stream, expectedSequence, events: [deposited(i)] })),
          );
          expect(outcomes.filter((o) => o.value !== undefined)).toHaveLength(1);
          for (const { error } of outcomes.filter((o) => o.error !== undefined)) {
            expect(error).toMatchObject({ expectedSequence, actualSequence: expectedSequence + 1 });
          }
        }
        await store.append({ stream, expectedSequence: 3, events: [], commandId: 'shared' });
        await expect(other.append({ stream, expectedSequence: 3, events: [], commandId: 'shared' })).rejects.toBeInstanceOf(
          DuplicateCommandError,
        );
        expect(await other.readStream(stream)).toEqual(await store.readStream(stream));
        expect(await other.findCommand(stream, 'shared')).toEqual(await store.findCommand(stream, 'shared'));
      } finally {
        await second.close();
      }
    });

    it('refuses a repeated command id with DuplicateCommandError and finds what the first one appended', async () => {
      const stream = newStream();
      await store.append({ stream, expectedSequence: 0, events: [deposited(1)] });
      const first = await store.append({
        stream,
        expectedSequence: 1,
        events: [deposited(2), deposited(3)],
        commandId: 'cmd-1',
        commandFingerprint: 'print-1',
      });

      // Also when the retry carries a stale expected sequence: the repeat is the answer, not the conflict.
      for (const expectedSequence of [1, 3]) {
        const error = await store
          .append({ stream, expectedSequence, events: [deposited(9)], commandId: 'cmd-1' })
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DuplicateCommandError);
        expect(error).toMatchObject({ stream, commandId: 'cmd-1' });
      }
      expect(await store.streamSequence(stream)).toBe(3);
      expect(await store.findCommand(stream, 'cmd-1')).toEqual({
        commandId: 'cmd-1',
        stream,
        sequence: 3,
        events: first.events,
        fingerprint: 'print-1',
      });
      expect(await store.findCommand(stream, 'cmd-unknown')).toBeNull();
      expect(await store.findCommand(newStream(), 'cmd-1')).toBeNull();
      // A command id belongs to its stream.
      await expect(store.append({ stream: newStream(), expectedSequence: 0, events: [], commandId: 'cmd-1' })).resolves.toBeDefined();
    });

    it('records a command that appended nothing', async () => {
      const stream = newStream();
      await store.append({ stream, expectedSequence: 0, events: [deposited(1)] });
      const result = await store.append({ stream, expectedSequence: 1, events: [], commandId: 'noop' });

      expect(result).toEqual({ stream, sequence: 1, events: [] });
      expect(await store.findCommand(stream, 'noop')).toEqual({ commandId: 'noop', stream, sequence: 1, events: [], fingerprint: null });
      await expect(store.append({ stream, expectedSequence: 1, events: [], commandId: 'noop' })).rejects.toBeInstanceOf(
        DuplicateCommandError,
      );
    });

    it('refuses a command that appends nothing under a stale expected sequence, and records nothing', async () => {
      // A process manager decides on its cached state and relies on this guard when that state is stale.
      const stream = newStream();
      await store.append({ stream, expectedSequence: 0, events: [deposited(1), deposited(2)] });
      await expect(store.append({ stream, expectedSequence: 1, events: [], commandId: 'stale' })).rejects.toBeInstanceOf(ConcurrencyError);
      expect(await store.findCommand(stream, 'stale')).toBeNull();
    });

    it('lets exactly one of concurrent appends with one command id through', async () => {
      const stream = newStream();
      const outcomes = await settle(
        Array.from({ length: 5 }, (_, i) =>
          store.append({ stream, expectedSequence: i, events: [deposited(i)], commandId: 'once' }),
        ),
      );
      expect(outcomes[0].value?.sequence).toBe(1);
      for (const { error } of outcomes.slice(1)) expect(error).toBeInstanceOf(DuplicateCommandError);
      expect(await store.streamSequence(stream)).toBe(1);
    });

    it('reads everything in position order, in batches', async () => {
      const head = await store.headPosition();
      const streams = Array.from({ length: 5 }, () => newStream('ledger'));
      const appended = await Promise.all(
        streams.flatMap((stream) => [
          store.append({ stream, expectedSequence: 0, events: [deposited(1), deposited(2)] }),
          store.append({ stream, expectedSequence: 2, events: [deposited(3)] }),
        ]),
      );
      const expected = appended.flatMap((result) => result.events).sort((a, b) => a.position - b.position);

      const paged = await readEverythingAfter(head, 4);

      expect(paged).toEqual(expected);
      expect(paged).toHaveLength(15);
      for (const stream of streams) {
        const ofStream = paged.filter((e) => e.aggregateId === stream.aggregateId);
        expect(ofStream.map((e) => e.sequence)).toEqual([1, 2, 3]);
      }
      expect(await store.readAll({ afterPosition: head })).toEqual(expected);
      expect(await store.readAll({ afterPosition: head, limit: 3 })).toEqual(expected.slice(0, 3));
      expect(await store.headPosition()).toBe(expected[expected.length - 1].position);
      expect(await store.readAll({ afterPosition: await store.headPosition() })).toEqual([]);
    });

    it('reads at most 1000 events by default', async () => {
      const head = await store.headPosition();
      const stream = newStream('bulk');
      await store.append({ stream, expectedSequence: 0, events: Array.from({ length: 1001 }, (_, i) => deposited(i)) });
      const batch = await store.readAll({ afterPosition: head });
      expect(batch).toHaveLength(1000);
      expect(batch[999].sequence).toBe(1000);
    });

    given('readPartition')('reads one partition: only the events of aggregates whose id hashes to it, in position order', async () => {
      const head = await store.headPosition();
      // Ids beyond ASCII too: the hash is over UTF-16 code units, a character beyond the BMP as its surrogate pair.
      const ids = ['a', 'Zürich-7', '東京-3', 'emoji-😀-1', '', ...Array.from({ length: 20 }, () => randomUUID())];
      for (const aggregateId of ids) {
        await store.append({ stream: { aggregateType: 'sliced', aggregateId }, expectedSequence: 0, events: [deposited(1), deposited(2)] });
      }
      const all = await readEverythingAfter(head, 1000);
      const count = 3;
      const read: StoredEvent[] = [];
      for (let index = 0; index < count; index++) {
        const expected = all.filter((e) => sliceOfHash(stringHashCode(e.aggregateId), count) === index);
        const page = await store.readPartition({ afterPosition: head, partition: { index, count } });
        expect(page.events).toEqual(expected);
        expect(page.scannedTo).toBe(all[all.length - 1].position);
        read.push(...page.events);
      }
      expect(read.sort((a, b) => a.position - b.position)).toEqual(all);
      expect(await store.readPartition({ afterPosition: head, partition: { index: 0, count: 1 } })).toEqual({
        events: all,
        scannedTo: all[all.length - 1].position,
      });
    });

    given('readPartition')('tells how far a partition read scanned, with none, some or all of the events in the partition', async () => {
      const idIn = (index: number, count: number): string => {
        for (;;) {
          const id = randomUUID();
          if (sliceOfHash(stringHashCode(id), count) === index) return id;
        }
      };
      const partition = { index: 1, count: 2 };
      const append = async (aggregateId: string, events: number) =>
        (await store.append({ stream: { aggregateType: 'scanned', aggregateId }, expectedSequence: 0, events: Array.from({ length: events }, (_, i) => deposited(i)) }))
          .events;
      const start = await store.headPosition();

      // None: an empty page that still moves past the other partition's events, to the head.
      const others = await append(idIn(0, 2), 3);
      expect(await store.readPartition({ afterPosition: start, partition })).toEqual({ events: [], scannedTo: others[2].position });
      // Nothing after the head: an empty page at the position asked for.
      expect(await store.readPartition({ afterPosition: others[2].position, partition })).toEqual({ events: [], scannedTo: others[2].position });

      // Some: the partition's events, and the scan reaches the head past the others after them.
      const ours = await append(idIn(1, 2), 2);
      const later = await append(idIn(0, 2), 2);
      expect(await store.readPartition({ afterPosition: start, partition })).toEqual({ events: ours, scannedTo: later[1].position });

      // A full page: it covers up to its last event, not beyond (more of the partition may follow).
      expect(await store.readPartition({ afterPosition: start, limit: 1, partition })).toEqual({ events: [ours[0]], scannedTo: ours[0].position });
      expect(await store.readPartition({ afterPosition: start, limit: 2, partition })).toEqual({ events: ours, scannedTo: ours[1].position });

      // All: every event after the position is the partition's.
      const only = await append(idIn(1, 2), 3);
      expect(await store.readPartition({ afterPosition: later[1].position, partition })).toEqual({ events: only, scannedTo: only[2].position });
    });

    given('readPartition')('reads only the event types asked for, in a partition or the whole log, and scans past the others', async () => {
      const head = await store.headPosition();
      const types = ['Opened', 'Deposited', 'Closed'];
      for (let i = 0; i < 12; i++) {
        await store.append({
          stream: { aggregateType: 'typed', aggregateId: randomUUID() },
          expectedSequence: 0,
          events: types.map((type) => event(type, { i })),
        });
      }
      const all = await readEverythingAfter(head, 1000);
      const last = all[all.length - 1].position;
      const wanted = new Set(['Opened', 'Closed']);
      expect(await store.readPartition({ afterPosition: head, partition: { index: 0, count: 1 }, types: [...wanted] })).toEqual({
        events: all.filter((e) => wanted.has(e.type)),
        scannedTo: last,
      });
      for (let index = 0; index < 2; index++) {
        const inPartition = (e: StoredEvent) => sliceOfHash(stringHashCode(e.aggregateId), 2) === index;
        expect(await store.readPartition({ afterPosition: head, partition: { index, count: 2 }, types: ['Closed'] })).toEqual({
          events: all.filter((e) => e.type === 'Closed' && inPartition(e)),
          scannedTo: last,
        });
      }
      // Types that were never stored, or none at all: nothing, and the scan still reaches the head.
      expect(await store.readPartition({ afterPosition: head, partition: { index: 0, count: 1 }, types: ['Unknown'] })).toEqual({ events: [], scannedTo: last });
      expect(await store.readPartition({ afterPosition: head, partition: { index: 1, count: 2 }, types: [] })).toEqual({ events: [], scannedTo: last });
    });

    given('streamIds')('pages through the ids of the aggregates of a type, each once, in ascending order', async () => {
      const type = `paged-${randomUUID()}`;
      const ids = Array.from({ length: 7 }, (_, i) => `player-${String(i).padStart(2, '0')}`);
      // Several events per aggregate, written out of id order, beside another type with the same ids.
      for (const id of [...ids].reverse()) {
        await store.append({ stream: { aggregateType: type, aggregateId: id }, expectedSequence: 0, events: [deposited(1), deposited(2)] });
        await store.append({ stream: { aggregateType: `${type}-other`, aggregateId: `${id}x` }, expectedSequence: 0, events: [deposited(1)] });
      }

      expect(await store.streamIds(type)).toEqual(ids);
      const pages: string[][] = [];
      for (let page = await store.streamIds(type, { limit: 3 }); page.length > 0; ) {
        pages.push(page);
        page = await store.streamIds(type, { afterId: page[page.length - 1], limit: 3 });
      }
      expect(pages).toEqual([ids.slice(0, 3), ids.slice(3, 6), ids.slice(6)]);
      expect(await store.streamIds(type, { afterId: 'player-03', limit: 2 })).toEqual(['player-04', 'player-05']);
      expect(await store.streamIds(`${type}-none`)).toEqual([]);
    });

    given('readByCorrelation')('reads the events of one correlation after a position, in position order', async () => {
      const correlationId = randomUUID();
      const [a, b] = [newStream(), newStream()];
      const first = await store.append({ stream: a, expectedSequence: 0, events: [deposited(1, { correlationId }), deposited(2)] });
      const second = await store.append({ stream: b, expectedSequence: 0, events: [deposited(3, { correlationId })] });
      const ours = [first.events[0], second.events[0]];
      expect(await store.readByCorrelation(correlationId)).toEqual(ours);
      expect(await store.readByCorrelation(correlationId, { afterPosition: ours[0].position })).toEqual([ours[1]]);
      expect(await store.readByCorrelation(correlationId, { limit: 1 })).toEqual([ours[0]]);
      expect(await store.readByCorrelation(randomUUID())).toEqual([]);
    });

    given('findByExternalId')('finds a fact by its external id and refuses a second one with that id', async () => {
      const stream = newStream('fact');
      const stored = await store.append({
        stream,
        expectedSequence: 0,
        events: [deposited(1), event('PaymentReceived', { amount: 5 }, { externalId: 'bank-42' })],
      });

      const found = await store.findByExternalId(stream, 'bank-42');
      expect(found).toEqual(stored.events[1]);
      expect(found?.metadata.externalId).toBe('bank-42');
      expect(await store.findByExternalId(stream, 'bank-0')).toBeNull();
      expect(await store.findByExternalId(newStream('fact'), 'bank-42')).toBeNull();

      const again = await store
        .append({ stream, expectedSequence: 2, events: [event('PaymentReceived', { amount: 5 }, { externalId: 'bank-42' })] })
        .catch((e: unknown) => e);
      expect(again).toBeInstanceOf(DuplicateExternalIdError);
      expect(again).toMatchObject({ stream, externalId: 'bank-42' });
      expect(await store.streamSequence(stream)).toBe(2);
      // Another stream may carry the same external id.
      await expect(
        store.append({ stream: newStream('fact'), expectedSequence: 0, events: [event('PaymentReceived', {}, { externalId: 'bank-42' })] }),
      ).resolves.toMatchObject({ sequence: 1 });
    });
  });
}
