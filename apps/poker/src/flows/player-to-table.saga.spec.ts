import { SagaFixture } from '@nest-es/core/testing';
import { PlayerReturningToPlay, PlayerSittingOut } from '../player/index.js';
import { PlayerSatIn, PlayerSatOut } from '../table/index.js';
import { PlayerToTableSaga } from './player-to-table.saga.js';

describe('PlayerToTableSaga', () => {
  const asPlayer = (eventId: string) => ({ aggregateType: 'player', aggregateId: 'p1', metadata: { eventId } });

  it("records a player sitting out as a fact on each of the player's tables, once per player event", async () => {
    const outcome = await SagaFixture.for(PlayerToTableSaga).when(new PlayerSittingOut(['t1', 't2']), asPlayer('e-7'));
    expect(outcome.commands).toEqual([]);
    expect(outcome.facts.map(({ aggregateType, aggregateId, event, externalId }) => ({ aggregateType, aggregateId, event, externalId }))).toEqual([
      { aggregateType: 'table', aggregateId: 't1', event: new PlayerSatOut('p1'), externalId: 'e-7' },
      { aggregateType: 'table', aggregateId: 't2', event: new PlayerSatOut('p1'), externalId: 'e-7' },
    ]);
  });

  it('records a player returning to play the same way', async () => {
    const outcome = await SagaFixture.for(PlayerToTableSaga).when(new PlayerReturningToPlay(['t1']), asPlayer('e-9'));
    expect(outcome.facts).toEqual([expect.objectContaining({ aggregateId: 't1', event: new PlayerSatIn('p1'), externalId: 'e-9' })]);
  });
});
