import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { CommandGateway, EventSourcingModule, SyncMode } from '@nest-es/core';
import { DEAD_LETTER_STORE } from '@nest-es/core/internal';
import { type DeadLetterStore } from '@nest-es/core/adapter';
import { BalancesProjector, BANKROLL_PROVIDERS, Deposit, MAX_BANKROLL } from './support/bankroll.domain.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { until } from './support/until.js';
import { typeorm } from '@nest-es/typeorm';

/*
 * A poison event (a bankroll the balances table refuses) is retried for seconds (7 attempts with
 * backoff) before it is dead-lettered. Meanwhile the projector must go on with every other
 * player, and hold back only the poisoned player's later events, in order.
 */
describe('poison isolation: a failing event holds back only its own aggregate', () => {
  const OTHERS = 20;
  /** Generous on a loaded machine; the poison's retries alone take over 5 s, the sync timeout is 10 s. */
  const BOUND_MS = 1_000;
  let store: TestStore;
  let app: INestApplication;

  beforeAll(async () => {
    store = await createTestStore();
    const moduleRef = await Test.createTestingModule({
      imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options), syncTimeoutMs: 10_000, processing: { pollIntervalMs: 50 } })],
      providers: BANKROLL_PROVIDERS,
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
    await store?.cleanup();
  });

  it('keeps SIMPLE commands on other aggregates fast while the poison is retried, and projects the poisoned aggregate in order after it', async () => {
    const gateway = app.get(CommandGateway);
    const projector = app.get(BalancesProjector);
    const deadLetters: DeadLetterStore = app.get(DEAD_LETTER_STORE);

    const poison = await gateway.send(new Deposit('whale', MAX_BANKROLL + 1));
    const poisonPosition = poison.events[0].position;
    // Its player's next event, stored behind the poison: it must wait for it (per-aggregate order).
    const next = await gateway.send(new Deposit('whale', -(MAX_BANKROLL - 1)));
    await until(() => projector.attempts.some((attempt) => attempt.position === poisonPosition && attempt.failed), 'the poison to fail once');

    const latencies: number[] = [];
    for (let i = 0; i < OTHERS; i++) {
      const started = performance.now();
      await gateway.send(new Deposit(`player-${i}`, 100), { syncMode: SyncMode.SIMPLE });
      latencies.push(performance.now() - started);
      // SIMPLE returned: the deposit shows; the poisoned player shows nothing of its later event yet.
      expect(await projector.balance(`player-${i}`)).toEqual({ bankroll: 100, deposits: 1 });
      const whale = await projector.balance('whale');
      if (whale !== undefined) expect(await deadLetters.list({ kind: 'event' })).not.toEqual([]);
    }
    // All of that ran while the poison was still being retried.
    expect(await deadLetters.list({ kind: 'event' })).toEqual([]);
    expect(latencies.filter((ms) => ms >= BOUND_MS)).toEqual([]);

    // The poison is dead-lettered after its attempts; then its player's next event is projected.
    await until(async () => (await projector.balance('whale')) !== undefined, 'the poisoned player to be projected after the poison');
    expect(await projector.balance('whale')).toEqual({ bankroll: 2, deposits: 1 });
    const letters = await deadLetters.list({ kind: 'event' });
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({ subscriber: 'balances', aggregateId: 'whale', attempts: 7, context: { position: poisonPosition } });
    const whaleAttempts = projector.attempts.filter((attempt) => attempt.playerId === 'whale').map((attempt) => attempt.position);
    const lastPoisonAttempt = whaleAttempts.lastIndexOf(poisonPosition);
    expect(whaleAttempts.indexOf(next.events[0].position)).toBeGreaterThan(lastPoisonAttempt);
    // Every other player's deposit was projected exactly once.
    for (let i = 0; i < OTHERS; i++) expect(await projector.balance(`player-${i}`)).toEqual({ bankroll: 100, deposits: 1 });
  }, 60_000);
});
