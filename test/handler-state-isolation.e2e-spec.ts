// A command handler gets state that is its own: one that changes its state and then refuses the
// command leaves nothing behind, neither in the next command's decision nor in what is stored.
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IsInt, IsString } from 'class-validator';
import { Aggregate, AggregateId, AggregateReader, Apply, CommandGateway, CommandHandler, EVENT_STORE, EventSourcingModule, FailedPreconditionError, type EventStore } from '@nest-es/core';
import { typeorm } from '@nest-es/typeorm';
import { createTestStore, type TestStore } from './support/test-store.js';

class Withdraw {
  @AggregateId() @IsString() accountId: string;
  @IsInt() amount: number;

  constructor(accountId: string, amount: number) {
    this.accountId = accountId;
    this.amount = amount;
  }
}

class Withdrawn {
  constructor(
    readonly amount: number,
    readonly newBalance: number,
  ) {}
}

interface Account {
  balance: number;
  history: number[];
}

@Aggregate('careless-account')
class CarelessAccount {
  initialState(): Account {
    return { balance: 100, history: [] };
  }

  /** Takes the money out of its state first and checks afterwards: a refusal must not keep the change. */
  @CommandHandler(Withdraw, { emits: [Withdrawn] })
  withdraw(command: Withdraw, state: Account) {
    state.balance -= command.amount;
    state.history.push(-command.amount);
    if (state.balance < 0) throw new FailedPreconditionError(`insufficient funds: ${state.balance + command.amount} available`);
    return new Withdrawn(command.amount, state.balance);
  }

  @Apply(Withdrawn)
  onWithdrawn(state: Account, event: Withdrawn) {
    state.balance = event.newBalance;
    state.history.push(-event.amount);
  }
}

async function boot(store: TestStore): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options) })],
    providers: [CarelessAccount],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return app;
}

describe('a command handler that changes its state and then refuses', () => {
  let store: TestStore;

  beforeAll(async () => {
    store = await createTestStore();
  });

  afterAll(() => store?.cleanup());

  it('leaves the next command, the stored event and the replayed state as if it had never run', async () => {
    const app = await boot(store);
    try {
      const gateway = app.get(CommandGateway);
      await expect(gateway.send(new Withdraw('acc', 140))).rejects.toThrow(/insufficient funds: 100 available/);
      const result = await gateway.send(new Withdraw('acc', 30));
      expect(result.events.map((event) => event.payload)).toEqual([{ amount: 30, newBalance: 70 }]);
      const stored = await app.get<EventStore>(EVENT_STORE).readStream({ aggregateType: 'careless-account', aggregateId: 'acc' });
      expect(stored.map((event) => event.payload)).toEqual([{ amount: 30, newBalance: 70 }]);
      expect((await app.get(AggregateReader).state('careless-account', 'acc')).state).toEqual({ balance: 70, history: [-30] });
    } finally {
      await app.close();
    }
    // A fresh process replays the store: the same state as the one the first process kept in memory.
    const again = await boot(store);
    try {
      expect((await again.get(AggregateReader).state('careless-account', 'acc')).state).toEqual({ balance: 70, history: [-30] });
    } finally {
      await again.close();
    }
  });
});
