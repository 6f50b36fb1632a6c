import { Aggregate, AggregateId, Apply, CommandHandler, FailedPreconditionError } from '@nest-es/core';
import { IsInt, IsPositive, IsString, Length } from 'class-validator';

export class OpenAccount {
  @AggregateId() @IsString() accountId!: string;
  @IsString() @Length(1, 50) owner!: string;
}

export class Deposit {
  @AggregateId() @IsString() accountId!: string;
  @IsInt() @IsPositive() amount!: number;
}

export class AccountOpened {
  constructor(readonly owner: string) {}
}

export class Deposited {
  constructor(
    readonly amount: number,
    readonly balance: number,
  ) {}
}

interface AccountState {
  open: boolean;
  balance: number;
}

@Aggregate('account', { view: true })
export class AccountAggregate {
  initialState(): AccountState {
    return { open: false, balance: 0 };
  }

  @CommandHandler(OpenAccount, { emits: [AccountOpened], http: true })
  open(command: OpenAccount, state: AccountState) {
    if (state.open) throw new FailedPreconditionError('account is already open');
    return new AccountOpened(command.owner);
  }

  @CommandHandler(Deposit, { emits: [Deposited], modifies: ['balance'], http: true })
  deposit(command: Deposit, state: AccountState) {
    if (!state.open) throw new FailedPreconditionError('account is not open');
    return new Deposited(command.amount, state.balance + command.amount);
  }

  @Apply(AccountOpened)
  onOpened(state: AccountState) {
    state.open = true;
  }

  @Apply(Deposited)
  onDeposited(state: AccountState, event: Deposited) {
    state.balance = event.balance;
  }
}
