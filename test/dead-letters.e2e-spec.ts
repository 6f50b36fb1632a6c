import { Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DEAD_LETTER_STORE } from '@nest-es/core/internal';
import { DeadLetterService, EventSourcingModule } from '@nest-es/core';
import { type DeadLetterStore } from '@nest-es/core/adapter';
import { CommandDeadLetterRetrier } from '@nest-es/core/internal';
import { createTestStore } from './support/test-store.js';
import { useMergeApp } from './support/merge-app-suite.js';
import { typeorm } from '@nest-es/typeorm';

describe('MANUAL merge and the dead-letter routes', () => {
  const suite = useMergeApp();

  const edit = (id: string, text: string, expected: number, headers: Record<string, string> = {}) =>
    suite.http.post(`/commands/document/${id}/EditDocument`).set({ 'Expected-Sequence': String(expected), ...headers }).send({ text });
  const events = async (id: string) => (await suite.http.get(`/aggregates/document/${id}/events`)).body.events;

  /** A document at sequence 1 and an edit made on sequence 0, parked; returns the dead-letter id. */
  async function park(id: string, headers: Record<string, string> = {}): Promise<string> {
    expect((await edit(id, 'first', 0)).status).toBe(200);
    const res = await edit(id, 'from an old copy', 0, headers);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ statusCode: 409, code: 'ABORTED', deadLetterId: expect.any(String) });
    return res.body.deadLetterId;
  }

  it('parks a mismatching command with both sequences and answers ABORTED with the dead-letter id; nothing is stored', async () => {
    const id = await park('doc1', { 'Command-Id': 'edit-doc1-b', 'Correlation-Id': 'review-flow' });
    const letter = await suite.http.get(`/dead-letters/${id}`);
    expect(letter.status).toBe(200);
    expect(letter.body).toMatchObject({
      id,
      kind: 'command',
      status: 'pending',
      aggregateType: 'document',
      aggregateId: 'doc1',
      messageType: 'EditDocument',
      payload: { documentId: 'doc1', text: 'from an old copy' },
      context: { commandId: 'edit-doc1-b', correlationId: 'review-flow', expectedSequence: 0, actualSequence: 1 },
      reason: 'sequence mismatch: expected 0, actual 1',
    });
    expect(await events('doc1')).toHaveLength(1);
  });

  it('answers a repeated send of the parked command (same Command-Id) with the same dead letter', async () => {
    const first = (await suite.http.get('/dead-letters?kind=command&status=pending')).body.deadLetters.find((l: { aggregateId: string }) => l.aggregateId === 'doc1');
    const again = await edit('doc1', 'from an old copy', 0, { 'Command-Id': 'edit-doc1-b' });
    expect(again.body).toMatchObject({ code: 'ABORTED', deadLetterId: first.id });
    const pending = (await suite.http.get('/dead-letters?status=pending')).body.deadLetters.filter((l: { aggregateId: string }) => l.aggregateId === 'doc1');
    expect(pending).toHaveLength(1);
  });

  it('refuses the Command-Id of a parked command on another command instead of answering with its letter', async () => {
    const [letter] = (await suite.http.get('/dead-letters?status=pending')).body.deadLetters.filter((l: { aggregateId: string }) => l.aggregateId === 'doc1');
    const other = await edit('doc1', 'another text', 0, { 'Command-Id': 'edit-doc1-b' });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 'ALREADY_EXISTS', commandId: 'edit-doc1-b', deadLetterId: letter.id });
    expect(other.body.message).toMatch(/send this EditDocument with a new command id/);
    const pending = (await suite.http.get('/dead-letters?status=pending')).body.deadLetters.filter((l: { aggregateId: string }) => l.aggregateId === 'doc1');
    expect(pending.map((found: { id: string }) => found.id)).toEqual([letter.id]);
    expect(await events('doc1')).toHaveLength(1);
  });

  it('retries with the expected sequence the reviewer gives: a stale one is refused and leaves it pending, the current one stores it as itself', async () => {
    const [letter] = (await suite.http.get('/dead-letters?status=pending')).body.deadLetters.filter((l: { aggregateId: string }) => l.aggregateId === 'doc1');

    const missing = await suite.http.post(`/dead-letters/${letter.id}/retry`).send({});
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/needs expectedSequence/);

    const stale = await suite.http.post(`/dead-letters/${letter.id}/retry`).send({ expectedSequence: 0 });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ code: 'SEQUENCE_MISMATCH', expectedSequence: 0, actualSequence: 1 });
    expect((await suite.http.get(`/dead-letters/${letter.id}`)).body.status).toBe('pending');

    const retried = await suite.http.post(`/dead-letters/${letter.id}/retry`).send({ expectedSequence: 1 });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ deadLetter: { id: letter.id, status: 'retried' }, result: { aggregateId: 'doc1', sequence: 2, commandId: 'edit-doc1-b' } });
    const [, stored] = await events('doc1');
    expect(stored).toMatchObject({ type: 'DocumentEdited', sequence: 2, payload: { text: 'from an old copy' }, metadata: { commandId: 'edit-doc1-b', correlationId: 'review-flow' } });

    for (const action of ['retry', 'discard']) {
      const again = await suite.http.post(`/dead-letters/${letter.id}/${action}`).send({ expectedSequence: 2 });
      expect([action, again.status, again.body.code, again.body.message]).toEqual([action, 409, 'FAILED_PRECONDITION', `dead letter ${letter.id} is already retried`]);
    }
    expect(await events('doc1')).toHaveLength(2);
  });

  it('does not mark a parked command retried when its Command-Id was since used by a different command', async () => {
    const id = await park('doc3', { 'Command-Id': 'taken-id' });
    expect((await edit('doc3', 'another edit', 1, { 'Command-Id': 'taken-id' })).status).toBe(200);
    const retried = await suite.http.post(`/dead-letters/${id}/retry`).send({ expectedSequence: 2 });
    expect(retried.status).toBe(409);
    expect(retried.body).toMatchObject({ code: 'FAILED_PRECONDITION' });
    expect(retried.body.message).toMatch(/command id 'taken-id' was used by another command .* since it was parked; discard the letter/);
    expect((await suite.http.get(`/dead-letters/${id}`)).body.status).toBe('pending');
    expect((await events('doc3')).map((event: { payload: { text: string } }) => event.payload.text)).toEqual(['first', 'another edit']);
  });

  it('discards with a reason, once', async () => {
    const id = await park('doc2');
    const discarded = await suite.http.post(`/dead-letters/${id}/discard`).send({ reason: 'superseded by a later edit' });
    expect(discarded.status).toBe(200);
    expect(discarded.body.deadLetter).toMatchObject({ id, status: 'discarded', reason: 'superseded by a later edit' });
    for (const action of ['discard', 'retry']) {
      const again = await suite.http.post(`/dead-letters/${id}/${action}`).send({ expectedSequence: 1 });
      expect([action, again.status, again.body.code]).toEqual([action, 409, 'FAILED_PRECONDITION']);
    }
    expect(await events('doc2')).toHaveLength(1);
  });

  it('refuses a reason that is not a string with 400, whatever its shape', async () => {
    const id = await park('doc4');
    let deep: unknown = 'bottom';
    for (let i = 0; i < 5_000; i++) deep = { reason: deep };
    for (const body of [{ reason: { toString: 1 } }, { reason: { valueOf: 1, toString: 1 } }, { reason: ['a'] }, { reason: 7 }, deep]) {
      const refused = await suite.http.post(`/dead-letters/${id}/discard`).send(body as object);
      expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_ARGUMENT']);
    }
    expect((await suite.http.get(`/dead-letters/${id}`)).body.status).toBe('pending');
  });

  it('lists with status and kind filters and refuses unknown filter values', async () => {
    const all = (await suite.http.get('/dead-letters')).body.deadLetters;
    const byStatus = (status: string) => all.filter((l: { status: string }) => l.status === status).map((l: { id: string }) => l.id);
    for (const status of ['pending', 'retried', 'discarded']) {
      const listed = await suite.http.get(`/dead-letters?status=${status}`);
      expect(listed.body.deadLetters.map((l: { id: string }) => l.id)).toEqual(byStatus(status));
    }
    expect(byStatus('retried')).toHaveLength(1);
    expect(byStatus('discarded')).toHaveLength(1);
    expect((await suite.http.get('/dead-letters?kind=event')).body.deadLetters).toEqual([]);
    const bad = await suite.http.get('/dead-letters?status=lost');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'INVALID_ARGUMENT', message: "status must be one of pending, retried, discarded, got 'lost'" });
    expect((await suite.http.get('/dead-letters?kind=email')).status).toBe(400);
  });

  it('answers 404 NOT_FOUND for an unknown id on every route', async () => {
    for (const res of [
      await suite.http.get('/dead-letters/nope'),
      await suite.http.post('/dead-letters/nope/retry').send({ expectedSequence: 1 }),
      await suite.http.post('/dead-letters/nope/discard').send({}),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, code: 'NOT_FOUND', message: "no dead letter with id 'nope'" });
    }
  });

  describe('retriers per kind', () => {
    const eventLetter = {
      kind: 'event' as const,
      subscriber: 'balance-projector',
      aggregateType: 'player',
      aggregateId: 'p1',
      messageType: 'FundsDeposited',
      payload: { amount: 5 },
      context: { position: 42 },
      reason: 'projector kept failing',
      attempts: 5,
    };

    it('runs the retrier registered for the letter\'s kind, with the body, and marks the letter retried', async () => {
      const letters = suite.app.get<DeadLetterStore>(DEAD_LETTER_STORE);
      // A service of our own, so this test does not depend on whether event processing registered its retrier.
      const service = new DeadLetterService(letters, suite.app.get(CommandDeadLetterRetrier));
      const seen: unknown[] = [];
      service.registerRetrier('event', async (letter, body) => {
        seen.push([letter.subscriber, letter.context, body]);
        return { redelivered: letter.messageType };
      });
      const letter = await letters.add(eventLetter);
      await expect(service.retry(letter.id, { note: 'x' })).resolves.toMatchObject({ deadLetter: { status: 'retried' }, result: { redelivered: 'FundsDeposited' } });
      expect(seen).toEqual([['balance-projector', { position: 42 }, { note: 'x' }]]);
    });

    it('leaves the letter pending when the retrier refuses, and allows one retrier per kind', async () => {
      const letters = suite.app.get<DeadLetterStore>(DEAD_LETTER_STORE);
      const service = new DeadLetterService(letters, suite.app.get(CommandDeadLetterRetrier));
      service.registerRetrier('event', async () => {
        throw new Error('subscriber still failing');
      });
      const letter = await letters.add(eventLetter);
      await expect(service.retry(letter.id)).rejects.toThrow('subscriber still failing');
      expect((await service.get(letter.id)).status).toBe('pending');
      expect(() => service.registerRetrier('event', async () => undefined)).toThrow("dead letters of kind 'event' already have a retrier");
      expect(() => suite.app.get(DeadLetterService).registerRetrier('command', async () => undefined)).toThrow("dead letters of kind 'command' already have a retrier");
      await expect(service.discard(letter.id)).resolves.toMatchObject({ status: 'discarded' });
    });
  });

  it('is injectable into the application\'s own providers', async () => {
    @Injectable()
    class Reviewer {
      constructor(readonly deadLetters: DeadLetterService) {}
    }
    const own = await createTestStore();
    const moduleRef = await Test.createTestingModule({ imports: [EventSourcingModule.forRoot({ adapter: typeorm(own.options) })], providers: [Reviewer] }).compile();
    try {
      expect(moduleRef.get(Reviewer).deadLetters).toBeInstanceOf(DeadLetterService);
    } finally {
      await moduleRef.close();
      await own.cleanup();
    }
  });
});
