import { ErrorCode } from '@nest-es/core';
import { TableAggregate } from './table.aggregate.js';
import { CreateTable, EndHand, JoinTable, LeaveTable, StartHand, TopUp } from './table.commands.js';
import { HandEnded, HandStarted, PlayerJoined, PlayerLeft, PlayerSatIn, PlayerSatOut, PlayerToppedUp, TableCreated } from './table.events.js';
import type { TableState } from './table.state.js';
import { AggregateFixture, expectRefusal } from '@nest-es/core/testing';
import { aggregateMetadataOf } from '@nest-es/core/internal';

const TABLE = 'table-1';
const context = { aggregateId: TABLE };

const create = (fields: Partial<CreateTable> = {}) =>
  Object.assign(new CreateTable(), {
    tableId: TABLE,
    name: 'Main',
    variant: 'TEXAS_HOLDEM',
    smallBlind: 5,
    bigBlind: 10,
    minBuyIn: 100,
    maxBuyIn: 1000,
    maxPlayers: 6,
    ...fields,
  });
const join = (playerId: string, seat: number, buyIn = 500) => Object.assign(new JoinTable(), { tableId: TABLE, playerId, seat, buyIn });
const leave = (playerId: string) => Object.assign(new LeaveTable(), { tableId: TABLE, playerId });
const startHand = () => Object.assign(new StartHand(), { tableId: TABLE });
const topUp = (playerId: string, amount: number) => Object.assign(new TopUp(), { tableId: TABLE, playerId, amount });
const endHand = (handId: string, stackChanges: Record<string, number>) => Object.assign(new EndHand(), { tableId: TABLE, handId, stackChanges });

const created = new TableCreated('Main', 'TEXAS_HOLDEM', 5, 10, 100, 1000, 6, 30000, 800);
const table = (...events: object[]) => AggregateFixture.for<TableState>(TableAggregate).given(created, ...events);
const seated = (...seats: [string, number][]) => table(...seats.map(([id, seat]) => new PlayerJoined(id, seat, 500, 500)));

describe('TableAggregate', () => {
  it('snapshots every 100 events', () => {
    expect(aggregateMetadataOf(TableAggregate)?.options.snapshot).toEqual({ every: 100 });
  });

  describe('CreateTable', () => {
    it('creates the table with the default action timeout', async () => {
      const outcome = await AggregateFixture.for<TableState>(TableAggregate).when(create(), context);
      expect(outcome.events).toEqual([created]);
      expect(outcome.state).toMatchObject({ created: true, name: 'Main', maxPlayers: 6, actionTimeoutMs: 30000, status: 'waiting', dealerPosition: -1 });
    });

    it('keeps a chosen action timeout', async () => {
      const outcome = await AggregateFixture.for(TableAggregate).when(create({ actionTimeoutMs: 5000 }));
      expect(outcome.state.actionTimeoutMs).toBe(5000);
    });

    it("keeps a chosen bots' pace, which every hand of the table carries", async () => {
      const fixture = AggregateFixture.for<TableState>(TableAggregate);
      expect((await fixture.whenThenGiven(create({ botDelayMs: 150 }), context)).state.botDelayMs).toBe(150);
      await fixture.whenThenGiven(join('alice', 0), context);
      await fixture.whenThenGiven(join('bob', 1), context);
      expect(((await fixture.when(startHand(), context)).events[0] as HandStarted).botDelayMs).toBe(150);
    });

    it('reads a table created before the pace existed with the default pace', async () => {
      const old = Object.assign(Object.create(TableCreated.prototype) as TableCreated, { ...created, botDelayMs: undefined });
      expect(AggregateFixture.for<TableState>(TableAggregate).given(old).state.botDelayMs).toBe(800);
    });

    it('refuses a table that exists', async () => {
      expectRefusal(await table().when(create()), ErrorCode.FAILED_PRECONDITION, "table already exists as 'Main'");
    });

    it.each([
      [{ smallBlind: 20 }, 'smallBlind 20 must not exceed bigBlind 10'],
      [{ minBuyIn: 2000 }, 'minBuyIn 2000 must not exceed maxBuyIn 1000'],
      [{ name: '  ' }, 'name must be a non-blank name'],
      [{ smallBlind: 0 }, 'smallBlind must be a positive whole number of chips, got 0'],
      [{ bigBlind: 2.5 }, 'bigBlind must be a whole number of chips, got 2.5'],
      [{ maxPlayers: 11 }, 'maxPlayers must be from 2 to 10, got 11'],
      [{ maxPlayers: 1 }, 'maxPlayers must be from 2 to 10, got 1'],
      [{ variant: 'STUD' }, 'variant must be one of TEXAS_HOLDEM, OMAHA, FIVE_CARD_DRAW, got "STUD"'],
      [{ actionTimeoutMs: 500 }, 'actionTimeoutMs must be between 1000 and 600000 milliseconds, got 500'],
      [{ botDelayMs: -1 }, 'botDelayMs must be between 0 and 60000 milliseconds, got -1'],
      [{ actionTimeoutMs: 1000, botDelayMs: 1000 }, 'botDelayMs 1000 must be less than actionTimeoutMs 1000'],
      // One message per invalid field: a non-number is not also reported as out of range.
      [{ actionTimeoutMs: 'soon' }, /^CreateTable is invalid: actionTimeoutMs must be between 1000 and 600000 milliseconds, got "soon"$/],
    ] as [Partial<CreateTable>, string | RegExp][])('refuses %j as INVALID_ARGUMENT', async (fields, message) => {
      expectRefusal(await AggregateFixture.for(TableAggregate).when(create(fields)), ErrorCode.INVALID_ARGUMENT, message);
    });
  });

  describe('JoinTable', () => {
    it('seats the player with the buy-in as stack', async () => {
      const outcome = await table().when(join('alice', 3, 400));
      expect(outcome.events).toEqual([new PlayerJoined('alice', 3, 400, 400)]);
      expect(outcome.state.seats).toEqual({ 3: { playerId: 'alice', stack: 400, sittingOut: false, boughtIn: 400 } });
    });

    it('takes the lowest free seat for seat -1', async () => {
      const outcome = await seated(['alice', 0], ['bob', 2]).when(join('carol', -1));
      expect(outcome.events).toEqual([new PlayerJoined('carol', 1, 500, 500)]);
    });

    it('refuses when the table does not exist', async () => {
      expectRefusal(await AggregateFixture.for(TableAggregate).when(join('alice', 0)), ErrorCode.FAILED_PRECONDITION, 'table does not exist');
    });

    it.each([99, 1001])('refuses a buy-in of %i as outside the range', async (buyIn) => {
      expectRefusal(await table().when(join('alice', 0, buyIn)), ErrorCode.INVALID_ARGUMENT, `buy-in ${buyIn} is outside the table's range [100, 1000]`);
    });

    it('refuses a seat the table does not have', async () => {
      expectRefusal(await table().when(join('alice', 6)), ErrorCode.INVALID_ARGUMENT, 'seat 6 does not exist: this table has seats 0 to 5');
      expectRefusal(await table().when(join('alice', -2)), ErrorCode.INVALID_ARGUMENT, 'seat must be a seat from 0 to 9, or -1 for any free seat, got -2');
    });

    it('refuses a player already seated', async () => {
      expectRefusal(await seated(['alice', 1]).when(join('alice', 4)), ErrorCode.FAILED_PRECONDITION, 'player alice is already seated at seat 1');
    });

    it('refuses an occupied seat', async () => {
      expectRefusal(await seated(['alice', 1]).when(join('bob', 1)), ErrorCode.FAILED_PRECONDITION, 'seat 1 is occupied by alice');
    });

    it('refuses when the table is full', async () => {
      const full = seated(['a', 0], ['b', 1], ['c', 2], ['d', 3], ['e', 4], ['f', 5]);
      expectRefusal(await full.when(join('g', -1)), ErrorCode.FAILED_PRECONDITION, 'table is full: 6 of 6 seats taken');
    });

    it('seats a player while a hand runs; they play from the next hand', async () => {
      const fixture = seated(['alice', 0], ['bob', 1]);
      await fixture.whenThenGiven(startHand(), context);
      const outcome = await fixture.when(join('carol', 2));
      expect(outcome.state.seats[2].playerId).toBe('carol');
    });
  });

  describe('LeaveTable', () => {
    it('frees the seat and cashes out the stack', async () => {
      const outcome = await seated(['alice', 2]).when(leave('alice'));
      expect(outcome.events).toEqual([new PlayerLeft('alice', 2, 500, 500)]);
      expect(outcome.state.seats).toEqual({});
    });

    it('says what the player brought to the table: the buy-in and every top-up', async () => {
      const fixture = seated(['alice', 2], ['bob', 3]);
      await fixture.whenThenGiven(topUp('alice', 300), context);
      await fixture.whenThenGiven(startHand(), context);
      await fixture.whenThenGiven(endHand('table-1-hand-1', { alice: -100, bob: 100 }), context);
      expect((await fixture.when(leave('alice'))).events).toEqual([new PlayerLeft('alice', 2, 700, 800)]);
    });
  });

  describe('TopUp', () => {
    it("adds chips to a seated player's stack between hands, up to the table's maxBuyIn", async () => {
      const outcome = await seated(['alice', 2]).when(topUp('alice', 500));
      expect(outcome.events).toEqual([new PlayerToppedUp('alice', 2, 500, 1000)]);
      expect(outcome.state.seats[2]).toEqual({ playerId: 'alice', stack: 1000, sittingOut: false, boughtIn: 1000 });
    });

    it("refuses a top-up past the table's maxBuyIn", async () => {
      expectRefusal(await seated(['alice', 2]).when(topUp('alice', 501)), ErrorCode.FAILED_PRECONDITION, "a top-up of 501 would bring alice's stack of 500 to 1001, above the table's maxBuyIn 1000");
      expectRefusal(await seated(['alice', 2]).when(topUp('alice', 1001)), ErrorCode.INVALID_ARGUMENT, "top-up 1001 is above the table's maxBuyIn 1000");
      expectRefusal(await seated(['alice', 2]).when(topUp('alice', 0)), ErrorCode.INVALID_ARGUMENT, 'amount must be a positive whole number of chips, got 0');
    });

    it('refuses a player who is not seated, and during a hand', async () => {
      expectRefusal(await seated(['alice', 2]).when(topUp('bob', 100)), ErrorCode.FAILED_PRECONDITION, 'player bob is not seated at this table');
      const fixture = seated(['alice', 0], ['bob', 1]);
      await fixture.whenThenGiven(startHand(), context);
      expectRefusal(await fixture.when(topUp('alice', 100)), ErrorCode.FAILED_PRECONDITION, 'player alice cannot top up during hand table-1-hand-1: top up between hands');
    });

    it('refuses a player who is not seated', async () => {
      expectRefusal(await table().when(leave('alice')), ErrorCode.FAILED_PRECONDITION, 'player alice is not seated at this table');
    });

    it('refuses during a hand', async () => {
      const fixture = seated(['alice', 0], ['bob', 1]);
      await fixture.whenThenGiven(startHand(), context);
      expectRefusal(await fixture.when(leave('alice')), ErrorCode.FAILED_PRECONDITION, 'player alice cannot leave during hand table-1-hand-1');
    });
  });

  describe('StartHand', () => {
    it('starts hand 1 with the lowest seat as dealer; heads-up the dealer posts the small blind', async () => {
      const outcome = await seated(['alice', 2], ['bob', 4]).when(startHand(), context);
      expect(outcome.events).toEqual([
        new HandStarted('table-1-hand-1', 1, 'TEXAS_HOLDEM', 2, 2, 4, 5, 10, [
          { playerId: 'bob', position: 4, stack: 500 },
          { playerId: 'alice', position: 2, stack: 500 },
        ], TABLE, 30000),
      ]);
      expect(outcome.state).toMatchObject({ status: 'in_hand', currentHandId: 'table-1-hand-1', handCount: 1, dealerPosition: 2 });
    });

    it('passes a seed on for the deck', async () => {
      const outcome = await seated(['alice', 0], ['bob', 1]).when(Object.assign(startHand(), { seed: 'demo-7' }), context);
      expect((outcome.events[0] as HandStarted).deckSeed).toBe('demo-7');
    });

    it('puts the blinds on the two seats after the dealer and lists the players clockwise from there', async () => {
      const outcome = await seated(['a', 1], ['b', 3], ['c', 5]).when(startHand(), context);
      const started = outcome.events[0] as HandStarted;
      expect([started.dealerPosition, started.smallBlindPosition, started.bigBlindPosition]).toEqual([1, 3, 5]);
      expect(started.players.map((p) => p.playerId)).toEqual(['b', 'c', 'a']);
    });

    it('moves the button to the next seat in play each hand, wrapping round', async () => {
      const fixture = seated(['a', 1], ['b', 3], ['c', 5]);
      const dealers: number[] = [];
      for (let hand = 1; hand <= 4; hand++) {
        const { events } = await fixture.whenThenGiven(startHand(), context);
        const started = events[0] as HandStarted;
        expect(started.handId).toBe(`table-1-hand-${hand}`);
        expect(started.handNumber).toBe(hand);
        dealers.push(started.dealerPosition);
        await fixture.whenThenGiven(endHand(started.handId, {}));
      }
      expect(dealers).toEqual([1, 3, 5, 1]);
    });

    it('skips players sitting out, who left, or who have no chips', async () => {
      const fixture = seated(['a', 0], ['b', 1], ['c', 2], ['d', 3], ['e', 4]);
      fixture.given(new HandStarted('table-1-hand-1', 1, 'TEXAS_HOLDEM', 0, 1, 2, 5, 10, [], TABLE, 30000), new HandEnded('table-1-hand-1', { c: -500, a: 500 }));
      fixture.given(new PlayerSatOut('b'), new PlayerLeft('d', 3, 500));
      const started = (await fixture.when(startHand(), context)).events[0] as HandStarted;
      expect(started.dealerPosition).toBe(4);
      expect(started.players.map((p) => p.playerId)).toEqual(['a', 'e']);
      expect([started.smallBlindPosition, started.bigBlindPosition]).toEqual([4, 0]);
    });

    it('refuses with fewer than 2 players ready', async () => {
      expectRefusal(await seated(['a', 0]).when(startHand(), context), ErrorCode.FAILED_PRECONDITION, 'at least 2 players');
      const oneSatOut = seated(['a', 0], ['b', 1]).given(new PlayerSatOut('a'));
      expectRefusal(await oneSatOut.when(startHand(), context), ErrorCode.FAILED_PRECONDITION, 'the table has 1');
    });

    it('refuses while a hand is in progress', async () => {
      const fixture = seated(['a', 0], ['b', 1]);
      await fixture.whenThenGiven(startHand(), context);
      expectRefusal(await fixture.when(startHand(), context), ErrorCode.FAILED_PRECONDITION, 'hand table-1-hand-1 is still in progress');
    });

    it('refuses when the table does not exist', async () => {
      expectRefusal(await AggregateFixture.for(TableAggregate).when(startHand(), context), ErrorCode.FAILED_PRECONDITION, 'table does not exist');
    });
  });

  describe('EndHand', () => {
    const inHand = async () => {
      const fixture = seated(['alice', 0], ['bob', 1]);
      await fixture.whenThenGiven(startHand(), context);
      return fixture;
    };

    it('applies the stack changes and waits for the next hand', async () => {
      const outcome = await (await inHand()).when(endHand('table-1-hand-1', { alice: 120, bob: -120 }));
      expect(outcome.events).toEqual([new HandEnded('table-1-hand-1', { alice: 120, bob: -120 })]);
      expect(outcome.state).toMatchObject({ status: 'waiting', currentHandId: null, handCount: 1 });
      expect(outcome.state.seats[0].stack).toBe(620);
      expect(outcome.state.seats[1].stack).toBe(380);
    });

    it('refuses a hand that is not in progress', async () => {
      expectRefusal(await (await inHand()).when(endHand('table-1-hand-9', {})), ErrorCode.FAILED_PRECONDITION, 'hand table-1-hand-9 is not in progress (current hand: table-1-hand-1)');
      expectRefusal(await seated(['alice', 0]).when(endHand('table-1-hand-1', {})), ErrorCode.FAILED_PRECONDITION, 'current hand: none');
    });

    it('refuses changes that are not whole chips or that create chips', async () => {
      expectRefusal(await (await inHand()).when(endHand('table-1-hand-1', { alice: 1.5 })), ErrorCode.INVALID_ARGUMENT, 'stackChanges.alice must be a whole number of chips, got 1.5');
      expectRefusal(await (await inHand()).when(endHand('table-1-hand-1', { alice: 100, bob: -50 })), ErrorCode.INVALID_ARGUMENT, 'stack changes sum to +50');
    });

    it('refuses a player not seated, or a loss beyond the stack', async () => {
      expectRefusal(await (await inHand()).when(endHand('table-1-hand-1', { carol: -10 })), ErrorCode.FAILED_PRECONDITION, 'player carol is not seated');
      expectRefusal(await (await inHand()).when(endHand('table-1-hand-1', { alice: -600 })), ErrorCode.FAILED_PRECONDITION, 'player alice cannot lose 600 chips with a stack of 500');
    });
  });

  describe('facts PlayerSatOut / PlayerSatIn', () => {
    it('mark the seat sitting out and back in', () => {
      const fixture = seated(['alice', 3]).given(new PlayerSatOut('alice'));
      expect(fixture.state.seats[3].sittingOut).toBe(true);
      fixture.given(new PlayerSatIn('alice'));
      expect(fixture.state.seats[3].sittingOut).toBe(false);
    });

    it('change nothing for a player who is not seated', () => {
      const fixture = seated(['alice', 3]).given(new PlayerSatOut('bob'));
      expect(fixture.state.seats).toEqual({ 3: { playerId: 'alice', stack: 500, sittingOut: false, boughtIn: 500 } });
    });
  });
});
