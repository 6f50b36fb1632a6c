import { ProjectorFixture } from '@nest-es/core/testing';
import { FundsDeposited, FundsReserved, FundsWithdrawn, PlayerAggregate, PlayerRegistered } from '../player/index.js';
import { BalancesProjector } from './balances.projector.js';
import { BalancesQuery } from './balances.query.js';
import { typeorm } from '@nest-es/typeorm';

describe('BalancesProjector (SQLite in memory)', () => {
  let fixture: ProjectorFixture;

  beforeAll(async () => {
    fixture = await ProjectorFixture.create({ projector: BalancesProjector, providers: [PlayerAggregate, BalancesQuery], adapter: typeorm({ type: 'sqlite', database: ':memory:' }) });
  });

  afterAll(() => fixture?.close());

  it('keeps bankroll, reserved and available per player', async () => {
    await fixture.given('player/p1', new PlayerRegistered('Ann', 'ann@example.com', 'HUMAN'), new FundsDeposited(1000, 1000));
    expect(await fixture.get(BalancesQuery).balance('p1')).toEqual({ playerId: 'p1', bankroll: 1000, reserved: 0, available: 1000 });

    await fixture.given('player/p1', new FundsReserved(300, 't1', 700), new FundsWithdrawn(100, 900));
    expect(await fixture.get(BalancesQuery).balance('p1')).toEqual({ playerId: 'p1', bankroll: 900, reserved: 300, available: 600 });
  });

  it('has no balance for a player it never saw', async () => {
    await expect(fixture.get(BalancesQuery).balance('nobody')).rejects.toThrow(/not registered/);
  });
});
