import { ErrorCode, type CommandRejection } from '@nest-es/core';
import { ProcessManagerFixture } from '@nest-es/core/testing';
import { FundsReserved, ReleaseFunds } from '../player/index.js';
import { initialTableState, JoinTable, PlayerJoined } from '../table/index.js';
import { BuyInCompleted, BuyInFailed, BuyInInitiated } from './buy-in.events.js';
import { BUY_IN_SEAT, BuyInProcess, type BuyInState } from './buy-in.process-manager.js';

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
});
