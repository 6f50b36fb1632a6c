import { SagaFixture } from '@nest-es/core/testing';
import { SettleTableSession } from '../player/index.js';
import { PlayerLeft } from '../table/index.js';
import { TableToPlayerSaga } from './table-to-player.saga.js';

describe('TableToPlayerSaga', () => {
  it('settles the session of a player who left a table, with the chips cashed out', async () => {
    const outcome = await SagaFixture.for(TableToPlayerSaga).when(new PlayerLeft('p1', 3, 740), { aggregateType: 'table', aggregateId: 't1' });

    expect(outcome.commands).toEqual([Object.assign(new SettleTableSession(), { playerId: 'p1', tableId: 't1', cashOut: 740 })]);
    expect(outcome.commands[0]).toBeInstanceOf(SettleTableSession);
    expect(outcome.facts).toEqual([]);
  });

  it('settles what the table says the player brought, so a top-up still on its way stays reserved', async () => {
    const outcome = await SagaFixture.for(TableToPlayerSaga).when(new PlayerLeft('p1', 3, 740, 600), { aggregateType: 'table', aggregateId: 't1' });
    expect(outcome.commands).toEqual([Object.assign(new SettleTableSession(), { playerId: 'p1', tableId: 't1', cashOut: 740, boughtIn: 600 })]);
  });
});
