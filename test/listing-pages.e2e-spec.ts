import { DEAD_LETTER_STORE } from '@nest-es/core/internal';
import { type DeadLetterStore } from '@nest-es/core/adapter';
import { HTTP_ADAPTERS } from './support/http-adapter.js';
import { useMergeApp } from './support/merge-app-suite.js';

describe.each(HTTP_ADAPTERS)('HTTP listings page (%s)', (adapter) => {
  const suite = useMergeApp({ listen: true, adapter });

  const edit = (id: string, text: string) => suite.http.post(`/commands/document/${id}/EditDocument`).send({ text });

  it('pages an aggregate\'s events with limit and afterSequence: each event once, nextAfterSequence until the last page', async () => {
    for (let i = 1; i <= 5; i++) expect((await edit('paged', `v${i}`)).status).toBe(200);
    const pages: Array<{ sequences: number[]; next: unknown }> = [];
    let after: number | undefined = 0;
    while (after !== undefined) {
      const res = await suite.http.get(`/aggregates/document/paged/events?limit=2&afterSequence=${after}`);
      expect(res.status).toBe(200);
      pages.push({ sequences: res.body.events.map((e: { sequence: number }) => e.sequence), next: res.body.nextAfterSequence });
      after = res.body.nextAfterSequence;
    }
    expect(pages).toEqual([
      { sequences: [1, 2], next: 2 },
      { sequences: [3, 4], next: 4 },
      { sequences: [5], next: undefined },
    ]);
    const whole = await suite.http.get('/aggregates/document/paged/events');
    expect([whole.body.events.length, 'nextAfterSequence' in whole.body]).toEqual([5, false]);
    const exact = await suite.http.get('/aggregates/document/paged/events?limit=5');
    expect('nextAfterSequence' in exact.body).toBe(false);
    const atTheEnd = await suite.http.get('/aggregates/document/paged/events?afterSequence=2147483647');
    expect([atTheEnd.status, atTheEnd.body.events]).toEqual([200, []]);
  });

  it('refuses a limit outside 1..1000, or given twice, with 400 INVALID_ARGUMENT', async () => {
    for (const query of ['limit=0', 'limit=1001', 'limit=-1', 'limit=1.5', 'limit=x', 'limit=1&limit=2', 'limit=']) {
      for (const path of ['/aggregates/document/paged/events', '/dead-letters']) {
        const res = await suite.http.get(`${path}?${query}`);
        expect([query, path, res.status, res.body.code]).toEqual([query, path, 400, 'INVALID_ARGUMENT']);
      }
    }
  });

  it('pages dead letters with limit and cursor: every letter once, in the unpaged order, filters kept', async () => {
    const letters = suite.app.get<DeadLetterStore>(DEAD_LETTER_STORE);
    for (let n = 0; n < 5; n++) {
      await letters.add({ kind: 'event', subscriber: 'pager', aggregateType: 'document', aggregateId: `d${n}`, messageType: 'DocumentEdited', payload: { n }, context: {}, reason: 'failed', attempts: 5 });
    }
    const all = (await suite.http.get('/dead-letters?kind=event&limit=1000')).body;
    expect(all.deadLetters).toHaveLength(5);
    expect('nextCursor' in all).toBe(false);
    const ids: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await suite.http.get('/dead-letters').query({ kind: 'event', limit: 2, ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      ids.push(...res.body.deadLetters.map((l: { id: string }) => l.id));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor);
    expect([ids, pages]).toEqual([all.deadLetters.map((l: { id: string }) => l.id), 3]);
  });

  it('refuses a cursor it did not hand out with 400 INVALID_ARGUMENT', async () => {
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const cursor of ['nope', forged([1e16, 'x']), forged([-1, 'x']), forged([0, '%00']), forged({ a: 1 }), forged([0, 'x'.repeat(300)])]) {
      const res = await suite.http.get('/dead-letters').query({ cursor });
      expect([cursor, res.status, res.body.code]).toEqual([cursor, 400, 'INVALID_ARGUMENT']);
    }
  });
});
