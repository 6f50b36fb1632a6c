import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import {
  Aggregate,
  AggregateId,
  Apply,
  CommandGateway,
  CommandHandler,
  EventSourcingModule,
  MergeHandler,
  MergeStrategy,
  proceed,
  SequenceMismatchError,
} from '@nest-es/core';
import { EVENT_SOURCING_DATA_SOURCE, typeorm } from '@nest-es/typeorm';
import { RenamePlayer } from '../apps/poker/src/player/index.js';
import { CapturingLogger } from './support/capturing-logger.js';
import { createMergeApp } from './support/merge-app.js';
import { createTestStore, type TestStore } from './support/test-store.js';

describe('merge strategies: each strategy, each branch', () => {
  let store: TestStore;
  let logs: CapturingLogger;
  let app: INestApplication;
  let http: ReturnType<typeof request>;

  beforeAll(async () => {
    store = await createTestStore();
    logs = new CapturingLogger();
    app = await createMergeApp(store.options, logs);
    http = request(app.getHttpServer());
  });

  afterAll(async () => {
    await app.close();
    await store.cleanup();
  });

  const send = (type: string, id: string, command: string, body: object, headers: Record<string, string> = {}) =>
    http.post(`/commands/${type}/${id}/${command}`).set(headers).send(body);
  const at = (expected: number, extra: Record<string, string> = {}) => ({ 'Expected-Sequence': String(expected), ...extra });
  const eventTypes = async (type: string, id: string) =>
    (await http.get(`/aggregates/${type}/${id}/events`)).body.events.map((e: { type: string }) => e.type);
  const state = async (type: string, id: string) => (await http.get(`/aggregates/${type}/${id}`)).body;

  describe('COMMUTATIVE with declared fields (the poker player)', () => {
    it('lets a stale command through when the fields it declares did not change, and refuses it with both sequences when they did', async () => {
      await send('player', 'cm1', 'RegisterPlayer', { displayName: 'Ann', email: 'ann@example.com' });
      await send('player', 'cm1', 'DepositFunds', { amount: 1000 }); // 2
      expect((await send('player', 'cm1', 'DepositFunds', { amount: 100 }, at(2))).body.sequence).toBe(3);

      const rename = await send('player', 'cm1', 'RenamePlayer', { displayName: 'Anna' }, at(2));
      expect(rename.status).toBe(200);
      expect(rename.body.sequence).toBe(4);

      const withdraw = await send('player', 'cm1', 'WithdrawFunds', { amount: 50 }, at(2));
      expect(withdraw.status).toBe(412);
      expect(withdraw.body).toMatchObject({
        code: 'SEQUENCE_MISMATCH',
        expectedSequence: 2,
        actualSequence: 4,
        overlappingFields: ['bankroll'],
        changedFields: expect.arrayContaining(['bankroll', 'available', 'displayName']),
      });

      const reserve = await send('player', 'cm1', 'ReserveFunds', { amount: 100, tableId: 't1' }, at(3));
      expect(reserve.status).toBe(200);
      const release = await send('player', 'cm1', 'ReleaseFunds', { tableId: 't1' }, at(4));
      expect(release.status).toBe(412);
      expect(release.body).toMatchObject({ expectedSequence: 4, actualSequence: 5, overlappingFields: ['reservations'] });

      expect(await eventTypes('player', 'cm1')).toEqual(['PlayerRegistered', 'FundsDeposited', 'FundsDeposited', 'PlayerRenamed', 'FundsReserved']);
      expect((await state('player', 'cm1')).state).toMatchObject({ displayName: 'Anna', bankroll: 1100, reservations: { t1: 100 } });
    });

    it('refuses an expected sequence ahead of the aggregate, whatever the strategy', async () => {
      const res = await send('player', 'cm1', 'DepositFunds', { amount: 1 }, at(99));
      expect(res.status).toBe(412);
      expect(res.body).toMatchObject({ expectedSequence: 99, actualSequence: 5 });
      expect(res.body.message).toMatch(/expected sequence 99 is ahead of the aggregate, which is at 5/);
    });
  });

  describe('COMMUTATIVE without declared fields: found by running the command and diffing', () => {
    it('merges changes to different nested fields and refuses changes to the same one', async () => {
      await send('profile', 'pr1', 'CreateProfile', { name: 'Bo' });
      expect((await send('profile', 'pr1', 'SetCity', { city: 'Oslo' }, at(1))).status).toBe(200);

      const street = await send('profile', 'pr1', 'SetStreet', { street: 'Main' }, at(1));
      expect(street.status).toBe(200);
      expect(street.body.sequence).toBe(3);

      const city = await send('profile', 'pr1', 'SetCity', { city: 'Bergen' }, at(1));
      expect(city.status).toBe(412);
      expect(city.body).toMatchObject({
        code: 'SEQUENCE_MISMATCH',
        expectedSequence: 1,
        actualSequence: 3,
        overlappingFields: ['address.city'],
        changedFields: ['address.city', 'address.street'],
      });
      expect((await state('profile', 'pr1')).state).toEqual({ name: 'Bo', address: { city: 'Oslo', street: 'Main' } });
    });

    it("behaves as STRICT for a command that declares modifies ['*'], and says so in the log", async () => {
      await send('profile', 'pr2', 'CreateProfile', { name: 'Cy' });
      await send('profile', 'pr2', 'SetName', { name: 'Cyd' });
      const res = await send('profile', 'pr2', 'ResetProfile', {}, at(1));
      expect(res.status).toBe(412);
      expect(res.body).toMatchObject({ expectedSequence: 1, actualSequence: 2, degradedToStrict: true });
      expect(logs.warnings).toContain("ResetProfile on profile/pr2: ResetProfile declares modifies ['*']; merge behaves as STRICT");
      expect((await send('profile', 'pr2', 'ResetProfile', {}, at(2))).status).toBe(200);
    });

    it('replays from a snapshot at or below the expected sequence, and behaves as STRICT when the replay fails', async () => {
      await send('profile', 'pr3', 'CreateProfile', { name: 'Di' });
      await send('profile', 'pr3', 'SetCity', { city: 'Rome' }); // snapshot at 2
      await send('profile', 'pr3', 'SetStreet', { street: 'Via Appia' });
      // An event type nothing applies any more (a removed @Apply): history before the snapshot cannot be replayed.
      await app
        .get<DataSource>(EVENT_SOURCING_DATA_SOURCE)
        .query(`UPDATE es_events SET event_type = 'RetiredEvent' WHERE aggregate_type = 'profile' AND aggregate_id = 'pr3' AND sequence = 1`);

      const fromSnapshot = await send('profile', 'pr3', 'SetName', { name: 'Dina' }, at(2));
      expect(fromSnapshot.status).toBe(200);
      expect(fromSnapshot.body.sequence).toBe(4);

      const belowSnapshot = await send('profile', 'pr3', 'SetName', { name: 'Dee' }, at(1));
      expect(belowSnapshot.status).toBe(412);
      expect(belowSnapshot.body).toMatchObject({ expectedSequence: 1, actualSequence: 4, degradedToStrict: true });
      expect(belowSnapshot.body.message).toMatch(/state at sequence 1 could not be replayed .*no @Apply for stored event type RetiredEvent.*merge behaves as STRICT/);
      expect(logs.warnings.some((line) => /SetName on profile\/pr3: the state at sequence 1 could not be replayed.*behaves as STRICT/.test(line))).toBe(true);
    });
  });

  describe('STRICT, and overriding the strategy per handler and per call', () => {
    it('refuses any mismatch on a STRICT aggregate', async () => {
      await send('turn', 'tu1', 'TakeTurn', { player: 'a' });
      const res = await send('turn', 'tu1', 'TakeTurn', { player: 'b' }, at(0));
      expect(res.status).toBe(412);
      expect(res.body).toMatchObject({ code: 'SEQUENCE_MISMATCH', expectedSequence: 0, actualSequence: 1 });
      expect(res.body.message).toMatch(/merge strategy STRICT refuses any sequence mismatch/);
      expect((await send('turn', 'tu1', 'TakeTurn', { player: 'b' }, at(1))).status).toBe(200);
    });

    it('uses the handler\'s own strategy over the aggregate\'s', async () => {
      const res = await send('turn', 'tu1', 'Annotate', { note: 'fast table' }, at(0));
      expect(res.status).toBe(200);
      expect(res.body.sequence).toBe(3);
    });

    it('uses the caller\'s Merge-Strategy header over both, whatever its case', async () => {
      // STRICT aggregate, commutative call: TakeTurn changes turns and lastPlayer, only the note changed since 2.
      const commutative = await send('turn', 'tu1', 'TakeTurn', { player: 'c' }, at(2, { 'Merge-Strategy': 'COMMUTATIVE' }));
      expect(commutative.status).toBe(200);

      await send('player', 'ov1', 'RegisterPlayer', { displayName: 'Eve', email: 'eve@example.com' });
      await send('player', 'ov1', 'DepositFunds', { amount: 10 });
      for (const value of ['strict', 'STRICT', 'Strict', ' sTrIcT ']) {
        const res = await send('player', 'ov1', 'RenamePlayer', { displayName: 'Evie' }, at(1, { 'Merge-Strategy': value }));
        expect([value, res.status, res.body.code]).toEqual([value, 412, 'SEQUENCE_MISMATCH']);
      }
      // A caller chooses among what the command allows: RenamePlayer allows no parking.
      const refused = await send('player', 'ov1', 'RenamePlayer', { displayName: 'Evie' }, at(1, { 'Merge-Strategy': 'Manual' }));
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/^RenamePlayer does not let its caller choose the merge strategy 'manual'; it takes commutative, strict/);
      expect(await eventTypes('player', 'ov1')).toEqual(['PlayerRegistered', 'FundsDeposited']);
      // Nor does a field the command does not declare ride along (into a dead letter, say).
      const padded = await send('player', 'ov1', 'RenamePlayer', { displayName: 'Evie', pad: 'x'.repeat(90_000) }, at(1));
      expect(padded.status).toBe(400);
      expect(padded.body.message).toMatch(/^RenamePlayer has no field 'pad'; it takes /);
      // TakeTurn lists manual among its callerMergeStrategies: the stale call is parked.
      const parked = await send('turn', 'tu1', 'TakeTurn', { player: 'd' }, at(1, { 'Merge-Strategy': 'Manual' }));
      expect(parked.status).toBe(409);
      expect(parked.body).toMatchObject({ code: 'ABORTED', deadLetterId: expect.any(String) });
    });

    it('refuses aggregate_handles for an aggregate without a merge handler, mismatch or not', async () => {
      for (const expected of [2, 1]) {
        const res = await send('player', 'ov1', 'RenamePlayer', { displayName: 'Evie' }, at(expected, { 'Merge-Strategy': 'aggregate_handles' }));
        expect(res.status).toBe(400);
        expect(res.body.message).toBe("merge strategy aggregate_handles needs a @MergeHandler() method on PlayerAggregate (aggregate 'player'), which has none");
      }
    });

    it('takes the strategy from send() options too', async () => {
      const gateway = app.get(CommandGateway);
      const rename = Object.assign(new RenamePlayer(), { playerId: 'ov1', displayName: 'Evie' });
      await expect(gateway.send(rename, { expectedSequence: 1, mergeStrategy: MergeStrategy.STRICT })).rejects.toBeInstanceOf(SequenceMismatchError);
      await expect(gateway.send(rename, { expectedSequence: 1 })).resolves.toMatchObject({ sequence: 3 });
    });
  });

  describe('AGGREGATE_HANDLES', () => {
    it('proceeds with the events the merge handler returns, on the actual state', async () => {
      await send('auction', 'au1', 'OpenAuction', {});
      await send('auction', 'au1', 'PlaceBid', { amount: 10 });
      const res = await send('auction', 'au1', 'PlaceBid', { amount: 20 }, at(1));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ sequence: 3, events: [{ type: 'BidPlaced', payload: { amount: 20 } }] });
    });

    it('refuses with the merge handler\'s reason and both sequences', async () => {
      const outbid = await send('auction', 'au1', 'PlaceBid', { amount: 15 }, at(1));
      expect(outbid.status).toBe(412);
      expect(outbid.body).toMatchObject({ code: 'SEQUENCE_MISMATCH', expectedSequence: 1, actualSequence: 3, reason: 'outbid meanwhile: the high bid is now 20' });
      expect(outbid.body.message).toMatch(/AuctionAggregate refused the merge: outbid meanwhile/);

      await send('auction', 'au1', 'CloseAuction', {});
      const closed = await send('auction', 'au1', 'PlaceBid', { amount: 50 }, at(3));
      expect(closed.body).toMatchObject({ code: 'SEQUENCE_MISMATCH', reason: 'the auction was closed meanwhile' });
      expect(await eventTypes('auction', 'au1')).toEqual(['AuctionOpened', 'BidPlaced', 'BidPlaced', 'AuctionClosed']);
    });
  });
});

describe('AGGREGATE_HANDLES wiring', () => {
  class Poke {
    @AggregateId() knobId!: string;
  }
  class Poked {}
  class Stray {}

  /** Boots the framework with these aggregates on a fresh store, hands the app to `use`, then closes both. */
  async function withApp(aggregates: Function[], use: (app: INestApplication) => Promise<void>): Promise<void> {
    const store = await createTestStore();
    try {
      const moduleRef = await Test.createTestingModule({
        imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options) })],
        providers: aggregates as never[],
      }).compile();
      const app = moduleRef.createNestApplication({ logger: false });
      try {
        await app.init();
        await use(app);
      } finally {
        await app.close();
      }
    } finally {
      await store.cleanup();
    }
  }

  it('fails the boot when the aggregate or one handler chooses it without a @MergeHandler()', async () => {
    @Aggregate('knob', { mergeStrategy: MergeStrategy.AGGREGATE_HANDLES })
    class Knob {
      initialState() {
        return {};
      }
      @CommandHandler(Poke, { emits: [Poked] })
      poke() {
        return new Poked();
      }
      @Apply(Poked)
      onPoked() {}
    }
    await expect(withApp([Knob], async () => undefined)).rejects.toThrow('Knob uses merge strategy AGGREGATE_HANDLES but has no @MergeHandler() method');

    @Aggregate('dial')
    class Dial {
      initialState() {
        return {};
      }
      @CommandHandler(Poke, { emits: [Poked], mergeStrategy: MergeStrategy.AGGREGATE_HANDLES })
      poke() {
        return new Poked();
      }
      @Apply(Poked)
      onPoked() {}
    }
    await expect(withApp([Dial], async () => undefined)).rejects.toThrow('Dial.poke uses merge strategy AGGREGATE_HANDLES but Dial has no @MergeHandler() method');
  });

  it('stores nothing when the merge handler returns an event its command does not declare', async () => {
    @Aggregate('lever', { mergeStrategy: MergeStrategy.AGGREGATE_HANDLES })
    class Lever {
      initialState() {
        return {};
      }
      @CommandHandler(Poke, { emits: [Poked] })
      poke() {
        return new Poked();
      }
      @MergeHandler()
      merge() {
        return proceed(new Stray());
      }
      @Apply(Poked)
      onPoked() {}
      @Apply(Stray)
      onStray() {}
    }
    await withApp([Lever], async (app) => {
      const gateway = app.get(CommandGateway);
      const poke = Object.assign(new Poke(), { knobId: 'l1' });
      await gateway.send(poke);
      await expect(gateway.send(poke, { expectedSequence: 0 })).rejects.toThrow(
        "Lever's @MergeHandler returned Stray, which is not in the emits of Lever.poke: [Poked]",
      );
      await expect(gateway.send(poke, { expectedSequence: 1 })).resolves.toMatchObject({ sequence: 2 });
    });
  });
});
