import { initialTableState, type TableState } from '../table/index.js';
import { buyInProblem } from './buy-in.validation.js';

const table = (seats: Record<number, string>, maxPlayers = 3): TableState => ({
  ...initialTableState(),
  created: true,
  minBuyIn: 100,
  maxBuyIn: 1000,
  maxPlayers,
  seats: Object.fromEntries(Object.entries(seats).map(([seat, playerId]) => [seat, { playerId, stack: 500, sittingOut: false }])),
});

describe('checking a buy-in against the table', () => {
  it('accepts an amount in range for a free seat, or any seat', () => {
    expect(buyInProblem(table({ 0: 'ann' }), 1, 100)).toBeNull();
    expect(buyInProblem(table({ 0: 'ann' }), -1, 1000)).toBeNull();
  });

  it.each([
    [table({}), 0, 99, 'INVALID_AMOUNT', "buy-in 99 is outside the table's range [100, 1000]"],
    [table({}), 0, 1001, 'INVALID_AMOUNT', "buy-in 1001 is outside the table's range [100, 1000]"],
    [table({ 0: 'a', 1: 'b', 2: 'c' }), -1, 500, 'TABLE_FULL', 'table is full: 3 of 3 seats taken'],
    [table({ 2: 'cy' }), 2, 500, 'SEAT_OCCUPIED', 'seat 2 is occupied by cy'],
  ])('refuses with a code and a reason (%#)', (state, seat, amount, code, reason) => {
    expect(buyInProblem(state, seat, amount)).toEqual({ code, reason });
  });
});
