import { ErrorCode, MergeStrategy } from '@nest-es/core';
import { PlayerAggregate } from './player.aggregate.js';
import { DepositFunds, RegisterPlayer, ReleaseFunds, RenamePlayer, ReserveFunds, SettleTableSession, SitIn, SitOut, WithdrawFunds } from './player.commands.js';
import {
  FundsDeposited,
  FundsReleased,
  FundsReserved,
  FundsWithdrawn,
  PlayerRegistered,
  PlayerRenamed,
  PlayerReturningToPlay,
  PlayerSittingOut,
  SessionSettled,
} from './player.events.js';
import type { PlayerState } from './player.state.js';
import { AggregateFixture, expectRefusal } from '@nest-es/core/testing';
import { aggregateMetadataOf, COMMAND_HANDLERS_METADATA } from '@nest-es/core/internal';

const ID = 'alice';
const command = <T extends object>(type: new () => T, fields: Partial<T> = {}): T => Object.assign(new type(), { playerId: ID, ...fields });
const registered = new PlayerRegistered('Alice', 'alice@example.com', 'HUMAN');
const player = (...events: object[]) => AggregateFixture.for<PlayerState>(PlayerAggregate).given(registered, ...events);
const funded = (...events: object[]) => player(new FundsDeposited(1000, 1000), ...events);

describe('PlayerAggregate', () => {
  it('is COMMUTATIVE and declares what each command modifies', () => {
    expect(aggregateMetadataOf(PlayerAggregate)!.options.mergeStrategy).toBe(MergeStrategy.COMMUTATIVE);
    const handlers: Array<{ command: { name: string }; options: { modifies?: string[] } }> = Reflect.getMetadata(COMMAND_HANDLERS_METADATA, PlayerAggregate);
    const modifies = Object.fromEntries(handlers.map((h) => [h.command.name, h.options.modifies]));
    // A rename and a deposit touch disjoint fields, so racing they both land; two withdrawals do not.
    expect(modifies).toMatchObject({ RenamePlayer: ['displayName'], DepositFunds: ['bankroll'], WithdrawFunds: ['bankroll'] });
  });

  describe('RegisterPlayer / RenamePlayer', () => {
    it('registers once, as HUMAN unless told otherwise', async () => {
      const outcome = await AggregateFixture.for<PlayerState>(PlayerAggregate).when(command(RegisterPlayer, { displayName: 'Alice', email: 'alice@example.com' }));
      expect(outcome.events).toEqual([registered]);
      expectRefusal(await player().when(command(RegisterPlayer, { displayName: 'A', email: 'a@example.com' })), ErrorCode.FAILED_PRECONDITION, "already registered as 'Alice'");
    });

    it('renames a registered player only', async () => {
      expect((await player().when(command(RenamePlayer, { displayName: 'Al' }))).events).toEqual([new PlayerRenamed('Al')]);
      expectRefusal(await AggregateFixture.for(PlayerAggregate).when(command(RenamePlayer, { displayName: 'Al' })), ErrorCode.FAILED_PRECONDITION, 'not registered');
    });
  });

  describe('DepositFunds / WithdrawFunds', () => {
    it('moves the bankroll and reports the new balance', async () => {
      expect((await player().when(command(DepositFunds, { amount: 300 }))).events).toEqual([new FundsDeposited(300, 300)]);
      const outcome = await funded().when(command(WithdrawFunds, { amount: 400 }));
      expect(outcome.events).toEqual([new FundsWithdrawn(400, 600)]);
      expect(outcome.state).toMatchObject({ bankroll: 600, available: 600, reserved: 0 });
    });

    it('refuses a non-positive amount as INVALID_ARGUMENT and more than is available as FAILED_PRECONDITION', async () => {
      expectRefusal(await player().when(command(DepositFunds, { amount: 0 })), ErrorCode.INVALID_ARGUMENT, 'amount must be a positive whole number of chips, got 0');
      expectRefusal(await player().when(command(DepositFunds, { amount: -5 })), ErrorCode.INVALID_ARGUMENT);
      const reserved = funded(new FundsReserved(700, 't1', 300));
      expectRefusal(await reserved.when(command(WithdrawFunds, { amount: 301 })), ErrorCode.FAILED_PRECONDITION, 'insufficient funds: available 300, requested 301');
    });
  });

  describe('ReserveFunds / ReleaseFunds / SettleTableSession', () => {
    it('reserves within what is available, once per table', async () => {
      const outcome = await funded().when(command(ReserveFunds, { amount: 400, tableId: 't1' }));
      expect(outcome.events).toEqual([new FundsReserved(400, 't1', 600)]);
      expect(outcome.state).toMatchObject({ bankroll: 1000, reserved: 400, available: 600, reservations: { t1: 400 } });
      const reserved = funded(new FundsReserved(400, 't1', 600));
      expectRefusal(await reserved.when(command(ReserveFunds, { amount: 100, tableId: 't1' })), ErrorCode.FAILED_PRECONDITION, 'already reserved for table t1: 400');
      expectRefusal(await reserved.when(command(ReserveFunds, { amount: 601, tableId: 't2' })), ErrorCode.FAILED_PRECONDITION, 'available 600, requested 601');
    });

    it('releases a reservation that exists', async () => {
      const outcome = await funded(new FundsReserved(400, 't1', 600)).when(command(ReleaseFunds, { tableId: 't1' }));
      expect(outcome.events).toEqual([new FundsReleased(400, 't1', 1000)]);
      expectRefusal(await funded().when(command(ReleaseFunds, { tableId: 't1' })), ErrorCode.FAILED_PRECONDITION, 'no funds are reserved for table t1');
    });

    it('settles a session: the cash-out replaces the reservation in the bankroll', async () => {
      const outcome = await funded(new FundsReserved(400, 't1', 600)).when(command(SettleTableSession, { tableId: 't1', cashOut: 650 }));
      expect(outcome.events).toEqual([new SessionSettled('t1', 400, 650, 1250)]);
      expect(outcome.state).toMatchObject({ bankroll: 1250, reserved: 0, available: 1250, reservations: {} });
      expectRefusal(await funded().when(command(SettleTableSession, { tableId: 't1', cashOut: 1 })), ErrorCode.FAILED_PRECONDITION, 'no funds are reserved');
      expectRefusal(await funded().when(command(SettleTableSession, { tableId: 't1', cashOut: -1 })), ErrorCode.INVALID_ARGUMENT, 'cashOut must be >= 0');
    });
  });

  describe('topping up at a table (ReserveFunds topUp, a partial ReleaseFunds, SettleTableSession boughtIn)', () => {
    it('adds a top-up to the reservation of a table where the player has one, within what is available', async () => {
      const seated = funded(new FundsReserved(400, 't1', 600));
      const outcome = await seated.when(command(ReserveFunds, { amount: 200, tableId: 't1', topUp: true }));
      expect(outcome.events).toEqual([new FundsReserved(200, 't1', 400)]);
      expect(outcome.state).toMatchObject({ bankroll: 1000, reserved: 600, available: 400, reservations: { t1: 600 } });
      expectRefusal(await seated.when(command(ReserveFunds, { amount: 601, tableId: 't1', topUp: true })), ErrorCode.FAILED_PRECONDITION, 'insufficient funds: available 600, requested 601');
      expectRefusal(await funded().when(command(ReserveFunds, { amount: 200, tableId: 't1', topUp: true })), ErrorCode.FAILED_PRECONDITION, 'no funds are reserved for table t1: buy in before topping up');
    });

    it('releases part of a reservation (a failed top-up), no more than is reserved', async () => {
      const seated = funded(new FundsReserved(400, 't1', 600), new FundsReserved(200, 't1', 400));
      const outcome = await seated.when(command(ReleaseFunds, { tableId: 't1', amount: 200 }));
      expect(outcome.events).toEqual([new FundsReleased(200, 't1', 600)]);
      expect(outcome.state).toMatchObject({ reserved: 400, available: 600, reservations: { t1: 400 } });
      expectRefusal(await seated.when(command(ReleaseFunds, { tableId: 't1', amount: 601 })), ErrorCode.FAILED_PRECONDITION, 'cannot release 601 chips: 600 are reserved for table t1');
    });

    it('settles what the table was brought, leaving a top-up still on its way reserved', async () => {
      const seated = funded(new FundsReserved(400, 't1', 600), new FundsReserved(200, 't1', 400));
      const outcome = await seated.whenThenGiven(command(SettleTableSession, { tableId: 't1', cashOut: 450, boughtIn: 400 }));
      expect(outcome.events).toEqual([new SessionSettled('t1', 400, 450, 1050)]);
      expect(outcome.state).toMatchObject({ bankroll: 1050, reserved: 200, available: 850, reservations: { t1: 200 } });
      // The table refuses that top-up (the player left): releasing it makes the bankroll whole.
      expect((await seated.when(command(ReleaseFunds, { tableId: 't1', amount: 200 }))).state).toMatchObject({ bankroll: 1050, reserved: 0, available: 1050, reservations: {} });
      expectRefusal(await funded(new FundsReserved(400, 't1', 600)).when(command(SettleTableSession, { tableId: 't1', cashOut: 0, boughtIn: 500 })), ErrorCode.FAILED_PRECONDITION, 'table t1 was brought 500 chips but only 400 are reserved for it');
    });
  });

  describe('SitOut / SitIn', () => {
    it('sits out of, and back in at, every table where the player has a seat', async () => {
      const seated = funded(new FundsReserved(100, 't1', 900), new FundsReserved(100, 't2', 800));
      const out = await seated.whenThenGiven(command(SitOut));
      expect(out.events).toEqual([new PlayerSittingOut(['t1', 't2'])]);
      expectRefusal(await seated.when(command(SitOut)), ErrorCode.FAILED_PRECONDITION, 'already sitting out');
      expect((await seated.when(command(SitIn))).events).toEqual([new PlayerReturningToPlay(['t1', 't2'])]);
    });

    it('refuses a player seated nowhere', async () => {
      expectRefusal(await funded().when(command(SitOut)), ErrorCode.FAILED_PRECONDITION, 'not seated at any table');
      expectRefusal(await funded().when(command(SitIn)), ErrorCode.FAILED_PRECONDITION, 'not seated at any table');
    });
  });
});
