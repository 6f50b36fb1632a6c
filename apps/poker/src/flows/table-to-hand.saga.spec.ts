import { SagaFixture } from '@nest-es/core/testing';
import { DealCards, HandComplete } from '../hand/index.js';
import { EndHand, HandStarted } from '../table/index.js';
import { HandToTableSaga } from './hand-to-table.saga.js';
import { TableToHandSaga } from './table-to-hand.saga.js';

const PLAYERS = [
  { playerId: 'a', position: 0, stack: 500 },
  { playerId: 'b', position: 3, stack: 300 },
];

describe('the sagas between the table and its hands', () => {
  it('deals a hand the table started, with its seed', async () => {
    const started = new HandStarted('t-hand-4', 4, 'OMAHA', 3, 0, 3, 5, 10, PLAYERS, 't', 30_000, 'seed-4');
    const outcome = await SagaFixture.for(TableToHandSaga).when(started, { aggregateType: 'table', aggregateId: 't' });
    expect(outcome.commands).toEqual([
      Object.assign(new DealCards(), {
        handId: 't-hand-4',
        tableId: 't',
        handNumber: 4,
        variant: 'OMAHA',
        players: PLAYERS,
        dealerPosition: 3,
        smallBlind: 5,
        bigBlind: 10,
        seed: 'seed-4',
      }),
    ]);
    expect(outcome.commands[0]).toBeInstanceOf(DealCards);
  });

  it('shuffles at random when the table gave no seed', async () => {
    const outcome = await SagaFixture.for(TableToHandSaga).when(new HandStarted('t-hand-5', 5, 'OMAHA', 0, 3, 0, 5, 10, PLAYERS, 't', 30_000));
    expect((outcome.commands[0] as DealCards).seed).toBeUndefined();
  });

  it("ends the table's hand with each player's stack change", async () => {
    const outcome = await SagaFixture.for(HandToTableSaga).when(new HandComplete('t', 't-hand-4', { a: 510, b: 290 }, { a: 10, b: -10 }), { aggregateType: 'hand', aggregateId: 't-hand-4' });
    expect(outcome.commands).toEqual([Object.assign(new EndHand(), { tableId: 't', handId: 't-hand-4', stackChanges: { a: 10, b: -10 } })]);
    expect(outcome.commands[0]).toBeInstanceOf(EndHand);
  });
});
