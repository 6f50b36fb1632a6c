import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ErrorCode } from '@nest-es/core';
import { AggregateFixture, ProjectorFixture, expectRefusal } from '@nest-es/core/testing';
import { READ_MODEL_DATA_SOURCE, portableQuery, typeorm } from '@nest-es/typeorm';
import type { DataSource } from 'typeorm';
import { AccountAggregate, AccountOpened, Deposit, Deposited } from './account.aggregate.js';
import { BalancesProjector } from './balances.projector.js';

describe('the account', () => {
  it('refuses a deposit before it is open', async () => {
    const outcome = await AggregateFixture.for(AccountAggregate).when(Object.assign(new Deposit(), { accountId: 'a1', amount: 5 }));
    expectRefusal(outcome, ErrorCode.FAILED_PRECONDITION, 'account is not open');
  });

  it('adds a deposit to the balance', async () => {
    const outcome = await AggregateFixture.for(AccountAggregate)
      .given(new AccountOpened('Ada'))
      .when(Object.assign(new Deposit(), { accountId: 'a1', amount: 5 }));
    expect(outcome.events).toEqual([new Deposited(5, 5)]);
  });
});

// On the app's own database: PostgreSQL when DATABASE_URL is set, else SQLite in memory.
describe('the balances projector', () => {
  let fixture: ProjectorFixture;

  beforeAll(async () => {
    const url = process.env.DATABASE_URL;
    fixture = await ProjectorFixture.create({
      projector: BalancesProjector,
      providers: [AccountAggregate],
      adapter: typeorm(url ? { type: 'postgres', url } : { type: 'sqlite', database: ':memory:' }),
    });
  });

  afterAll(() => fixture.close());

  it('keeps the balance of each account', async () => {
    await fixture.given('account/spec-1', new AccountOpened('Ada'), new Deposited(250, 250));
    const rows = await portableQuery(fixture.get<DataSource>(READ_MODEL_DATA_SOURCE), 'SELECT owner, balance FROM balances WHERE account_id = $1', ['spec-1']);
    expect(rows).toEqual([{ owner: 'Ada', balance: 250 }]);
  });
});
