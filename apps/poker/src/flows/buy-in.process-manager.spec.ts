import { ErrorCode, type CommandRejection } from '@nest-es/core';
import { ProcessManagerFixture } from '@nest-es/core/testing';
import { FundsReserved, ReleaseFunds } from '../player/index.js';
import { initialTableState, JoinTable, PlayerJoined, PlayerToppedUp, TopUp } from '../table/index.js';
import { BuyInCompleted, BuyInFailed, BuyInInitiated } from './buy-in.events.js';
import { BUY_IN_SEAT, BuyInProcess, type BuyInState, TOP_UP } from './buy-in.process-manager.js';

const reservation = () => new FundsReserved(200, 't1', 800);
const asBuyIn = { aggregateType: 'player', aggregateId: 'p1', metadata: { [BUY_IN_SEAT]: 2 } };

describe('BuyInProcess', () => {
  // The table as the reservation found it: here, no such table yet (JoinTable will say so).
  const fixture = () => ProcessManagerFixture.for<BuyInState>(BuyInProcess, new BuyInProcess(), 'buy-in-1').givenAggregate('table', 't1', initialTableState());

  it('ignores a reservation that is no buy-in, and never starts on another event', async () => {
    const flow = fixture();
    expect((await flow.when(new PlayerJoined('p1', 2, 200, 200))).ran).toBe(false);
    const plain = await flow.when(reservation(), { aggregateType: 'player', aggregateId: 'p1' });
    expect(plain).toMatchObject({ ran: true, events: [], commands: [] });
  });

  it('records the buy-in, asks the table to seat the player, and completes when the player joined', async () => {
    const flow = fixture();
    const started = await flow.when(reservation(), asBuyIn);
    expect(started.events).toEqual([new BuyInInitiated('p1', 't1', 2, 200)]);
    expect(started.state).toMatchObject({ playerId: 'p1', tableId: 't1', seat: 2, amount: 200, status: 'initiated' });

    const join = await flow.when(new BuyInInitiated('p1', 't1', 2, 200));
    expect(join.commands).toEqual([Object.assign(new JoinTable(), { tableId: 't1', playerId: 'p1', seat: 2, buyIn: 200 })]);
    expect(join.commands[0]).toBeInstanceOf(JoinTable);

    const joined = await flow.when(new PlayerJoined('p1', 2, 200, 200));
    expect(joined.events).toEqual([new BuyInCompleted(2)]);
    expect(joined.state.status).toBe('completed');
  });

  it('fails the buy-in at once when the table as of the reservation cannot seat it', async () => {
    const full = { ...initialTableState(), created: true, minBuyIn: 500, maxBuyIn: 1000, maxPlayers: 6 };
    const flow = ProcessManagerFixture.for<BuyInState>(BuyInProcess, new BuyInProcess(), 'buy-in-2').givenAggregate('table', 't1', full);
    const started = await flow.when(reservation(), asBuyIn);
    expect(started.events).toEqual([new BuyInInitiated('p1', 't1', 2, 200), expect.any(BuyInFailed)]);
    expect(started.state.status).toBe('failed');
  });

  it('releases the funds when the table refuses the seat', async () => {
    const flow = fixture().given(new BuyInInitiated('p1', 't1', 2, 200));
    const rejection: CommandRejection = {
      command: Object.assign(new JoinTable(), { tableId: 't1', playerId: 'p1', seat: 2, buyIn: 200 }),
      commandType: 'JoinTable',
      commandId: 'c1',
      code: ErrorCode.FAILED_PRECONDITION,
      message: 'seat 2 is taken',
      details: {},
    };
    const refused = await flow.whenRejected(rejection);
    expect(refused.events).toEqual([new BuyInFailed('SEATING_REJECTED', 'seat 2 is taken')]);

    const released = await flow.when(new BuyInFailed('SEATING_REJECTED', 'seat 2 is taken'));
    expect(released.commands).toEqual([Object.assign(new ReleaseFunds(), { playerId: 'p1', tableId: 't1' })]);
    expect(released.commands[0]).toBeInstanceOf(ReleaseFunds);
    expect(flow.currentState).toMatchObject({ status: 'failed', code: 'SEATING_REJECTED' });
  });

  describe('a top-up: the same flow, crediting the stack of a seated player', () => {
    const seatedTable = { ...initialTableState(), created: true, minBuyIn: 100, maxBuyIn: 1000, maxPlayers: 6, seats: { 4: { playerId: 'p1', stack: 700, sittingOut: false, boughtIn: 500 } } };
    const asTopUp = { aggregateType: 'player', aggregateId: 'p1', metadata: { [TOP_UP]: true } };
    const topUpFlow = (table = seatedTable) => ProcessManagerFixture.for<BuyInState>(BuyInProcess, new BuyInProcess(), 'top-up-1').givenAggregate('table', 't1', table);

    it('records the top-up at the seat, asks the table to add the chips, and completes when it did', async () => {
      const flow = topUpFlow();
      const started = await flow.when(reservation(), asTopUp);
      expect(started.events).toEqual([new BuyInInitiated('p1', 't1', 4, 200, true)]);
      const credit = await flow.when(new BuyInInitiated('p1', 't1', 4, 200, true));
      expect(credit.commands).toEqual([Object.assign(new TopUp(), { tableId: 't1', playerId: 'p1', amount: 200 })]);
      expect(credit.commands[0]).toBeInstanceOf(TopUp);
      expect((await flow.when(new PlayerJoined('p1', 4, 200, 200))).events).toEqual([]);
      const done = await flow.when(new PlayerToppedUp('p1', 4, 200, 900));
      expect(done.events).toEqual([new BuyInCompleted(4)]);
    });

    it("fails a top-up past the table's maxBuyIn, and releases only the top-up", async () => {
      const flow = topUpFlow({ ...seatedTable, seats: { 4: { ...seatedTable.seats[4], stack: 900 } } });
      const started = await flow.when(reservation(), asTopUp);
      expect(started.events).toEqual([
        new BuyInInitiated('p1', 't1', 4, 200, true),
        new BuyInFailed('INVALID_AMOUNT', "a top-up of 200 would bring p1's stack of 900 to 1100, above the table's maxBuyIn 1000"),
      ]);
      const released = await flow.when(new BuyInFailed('INVALID_AMOUNT', 'too much'));
      expect(released.commands).toEqual([Object.assign(new ReleaseFunds(), { playerId: 'p1', tableId: 't1', amount: 200 })]);
    });

    it('fails a top-up the table refuses, and releases only the top-up', async () => {
      const flow = topUpFlow().given(new BuyInInitiated('p1', 't1', 4, 200, true));
      const refused = await flow.whenRejected({
        command: Object.assign(new TopUp(), { tableId: 't1', playerId: 'p1', amount: 200 }),
        commandType: 'TopUp',
        commandId: 'c2',
        code: ErrorCode.FAILED_PRECONDITION,
        message: 'player p1 cannot top up during hand t1-hand-3: top up between hands',
        details: {},
      });
      expect(refused.events).toEqual([new BuyInFailed('SEATING_REJECTED', 'player p1 cannot top up during hand t1-hand-3: top up between hands')]);
      const released = await flow.when(new BuyInFailed('SEATING_REJECTED', 'refused'));
      expect(released.commands).toEqual([Object.assign(new ReleaseFunds(), { playerId: 'p1', tableId: 't1', amount: 200 })]);
    });
  });
});
