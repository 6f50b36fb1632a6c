import { AggregateReader, ErrorCode, NotFoundError, type CommandRejection } from '@nest-es/core';
import { ProcessManagerFixture } from '@nest-es/core/testing';
import { FundsReserved, ReleaseFunds } from '../player/index.js';
import { JoinTable, PlayerJoined } from '../table/index.js';
import { BuyInCompleted, BuyInFailed, BuyInInitiated } from './buy-in.events.js';
import { BUY_IN_SEAT, BuyInProcess, type BuyInState } from './buy-in.process-manager.js';

/** The write side as the buy-in sees it: here, no such table yet (JoinTable will say so). */
const noTables = { state: async () => Promise.reject(new NotFoundError('no table')) } as unknown as AggregateReader;

const reservation = () => new FundsReserved(200, 't1', 800);
const asBuyIn = { aggregateType: 'player', aggregateId: 'p1', metadata: { [BUY_IN_SEAT]: 2 } };

describe('BuyInProcess', () => {
  const fixture = () => ProcessManagerFixture.for<BuyInState>(BuyInProcess, new BuyInProcess(noTables), 'buy-in-1');

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

    const joined = await flow.when(new PlayerJoined('p1', 2, 200, 200));
    expect(joined.events).toEqual([new BuyInCompleted(2)]);
    expect(joined.state.status).toBe('completed');
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
    expect(flow.currentState).toMatchObject({ status: 'failed', code: 'SEATING_REJECTED' });
  });
});
