import { Aggregate, AggregateId, Apply, CommandHandler, EventType, OnEvent, ProcessManager, Projector, Saga, type ProcessContext, type ProcessReaction, type ProjectionContext } from '@nest-es/core';
import { IsInt, IsString } from 'class-validator';

// One account, written by the code of two releases: v1 (below, "then") and v3 ("now").

export class OpenAccount {
  @AggregateId() @IsString() accountId!: string;
  @IsString() owner!: string;
}

export class AddFunds {
  @AggregateId() @IsString() accountId!: string;
  @IsInt() amount!: number;
}

// ---- then: version 1 of FundsAdded (whole euros); AccountOpened stored under its class name.

@EventType('bank.FundsAdded')
export class FundsAddedV1 {
  constructor(readonly amount: number) {}
}

export class AccountOpened {
  constructor(readonly owner: string) {}
}

@Aggregate('account')
export class AccountThen {
  initialState() {
    return { owner: '', euros: 0 };
  }

  @CommandHandler(OpenAccount, { emits: [AccountOpened] })
  open(command: OpenAccount) {
    return new AccountOpened(command.owner);
  }

  @CommandHandler(AddFunds, { emits: [FundsAddedV1] })
  add(command: AddFunds) {
    return new FundsAddedV1(command.amount);
  }

  @Apply(AccountOpened)
  onOpened(state: { owner: string }, event: AccountOpened) {
    state.owner = event.owner;
  }

  @Apply(FundsAddedV1)
  onAdded(state: { euros: number }, event: FundsAddedV1) {
    state.euros += event.amount;
  }
}

// ---- now: FundsAdded is version 3 (cents, then a currency); the opened event's class was renamed.

/** v1 {amount: euros} -> v2 {cents} -> v3 {cents, currency}. */
@EventType('bank.FundsAdded', {
  version: 3,
  upcasters: {
    1: (v1: { amount: number }) => ({ cents: v1.amount * 100 }),
    2: (v2: { cents: number }) => ({ ...v2, currency: 'EUR' }),
  },
})
export class FundsAdded {
  constructor(
    readonly cents: number,
    readonly currency: string,
  ) {}
}

/** Renamed from AccountOpened; the stored name stays. */
@EventType('AccountOpened')
export class AccountWasOpened {
  constructor(readonly owner: string) {}
}

export interface AccountNow {
  owner: string;
  cents: number;
  currencies: string[];
}

@Aggregate('account', { snapshot: { every: 2 }, stateVersion: 2 })
export class AccountNowAggregate {
  initialState(): AccountNow {
    return { owner: '', cents: 0, currencies: [] };
  }

  @CommandHandler(OpenAccount, { emits: [AccountWasOpened] })
  open(command: OpenAccount) {
    return new AccountWasOpened(command.owner);
  }

  @CommandHandler(AddFunds, { emits: [FundsAdded] })
  add(command: AddFunds) {
    return new FundsAdded(command.amount * 100, 'EUR');
  }

  @Apply(AccountWasOpened)
  onOpened(state: AccountNow, event: AccountWasOpened) {
    state.owner = event.owner;
  }

  @Apply(FundsAdded)
  onAdded(state: AccountNow, event: FundsAdded) {
    state.cents += event.cents;
    if (!state.currencies.includes(event.currency)) state.currencies.push(event.currency);
  }
}

/** What each kind of subscriber was handed. */
export const seen = { projector: [] as unknown[], saga: [] as unknown[], process: [] as unknown[] };

@Projector('account-deposits')
export class DepositsProjector {
  @OnEvent(FundsAdded)
  onAdded(event: FundsAdded, { envelope }: ProjectionContext) {
    seen.projector.push({ ...event, version: envelope.schemaVersion, type: envelope.type });
  }
}

@Saga('deposit-notices')
export class DepositNoticeSaga {
  @OnEvent(FundsAdded)
  onAdded(event: FundsAdded) {
    seen.saga.push({ ...event });
  }
}

export class DepositCounted {
  constructor(readonly cents: number) {}
}

@ProcessManager('deposit-watch', { startsOn: [AccountWasOpened] })
export class DepositWatchProcess {
  initialState() {
    return { owner: '', total: 0 };
  }

  @OnEvent(AccountWasOpened)
  onOpened(event: AccountWasOpened): ProcessReaction {
    seen.process.push({ opened: event.owner });
    // A step that stores nothing would leave no instance for the deposits to reach.
    return { events: [new DepositCounted(0)] };
  }

  @OnEvent(FundsAdded)
  onAdded(event: FundsAdded, _ctx: ProcessContext): ProcessReaction {
    seen.process.push({ ...event });
    return { events: [new DepositCounted(event.cents)] };
  }

  @Apply(DepositCounted)
  onCounted(state: { total: number }, event: DepositCounted) {
    state.total += event.cents;
  }
}
