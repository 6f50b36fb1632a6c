import {
  Aggregate,
  AggregateId,
  Apply,
  CommandHandler,
  Saga as EventSaga,
  FailedPreconditionError,
  MergeStrategy,
  OnEvent,
  ProcessManager,
  fact,
  type ProcessContext,
  type SagaContext,
} from '@nest-es/core';
import { IsInt, IsPositive, IsString } from 'class-validator';

/* A wallet on our aggregates, used by the @nestjs/cqrs bridge suite. Opening one also appends a
   fact (through a saga) and a process-manager event, so all three append paths are exercised. */

export class OpenWallet {
  @AggregateId() @IsString() walletId: string;
  @IsString() owner: string;
  constructor(walletId: string, owner: string) {
    this.walletId = walletId;
    this.owner = owner;
  }
}
export class DepositFunds {
  @AggregateId() @IsString() walletId: string;
  @IsInt() @IsPositive() amount: number;
  constructor(walletId: string, amount: number) {
    this.walletId = walletId;
    this.amount = amount;
  }
}
export class WithdrawFunds {
  @AggregateId() @IsString() walletId: string;
  @IsInt() @IsPositive() amount: number;
  constructor(walletId: string, amount: number) {
    this.walletId = walletId;
    this.amount = amount;
  }
}

export class WalletOpened {
  constructor(readonly owner: string) {}
}
export class FundsDeposited {
  constructor(
    readonly amount: number,
    readonly balance: number,
  ) {}
}
export class FundsWithdrawn {
  constructor(
    readonly amount: number,
    readonly balance: number,
  ) {}
}

interface WalletState {
  open: boolean;
  balance: number;
}

/** STRICT, so a stale expected sequence is refused with SEQUENCE_MISMATCH instead of merged. */
@Aggregate('wallet', { mergeStrategy: MergeStrategy.STRICT })
export class WalletAggregate {
  initialState(): WalletState {
    return { open: false, balance: 0 };
  }
  @CommandHandler(OpenWallet, { emits: [WalletOpened] })
  open(command: OpenWallet, state: WalletState) {
    if (state.open) throw new FailedPreconditionError('wallet is already open');
    return new WalletOpened(command.owner);
  }
  @CommandHandler(DepositFunds, { emits: [FundsDeposited] })
  deposit(command: DepositFunds, state: WalletState) {
    return new FundsDeposited(command.amount, state.balance + command.amount);
  }
  @CommandHandler(WithdrawFunds, { emits: [FundsWithdrawn] })
  withdraw(command: WithdrawFunds, state: WalletState) {
    if (command.amount > state.balance) throw new FailedPreconditionError(`balance is ${state.balance}, ${command.amount} asked`);
    return new FundsWithdrawn(command.amount, state.balance - command.amount);
  }
  @Apply(WalletOpened)
  onOpened(state: WalletState) {
    state.open = true;
  }
  @Apply(FundsDeposited)
  onDeposited(state: WalletState, event: FundsDeposited) {
    state.balance = event.balance;
  }
  @Apply(FundsWithdrawn)
  onWithdrawn(state: WalletState, event: FundsWithdrawn) {
    state.balance = event.balance;
  }
}

/** A fact: the owner got a wallet (their own aggregate, so the wallet's sequence stays the test's). */
export class WalletAssigned {
  constructor(readonly walletId: string) {}
}

@Aggregate('owner')
export class OwnerAggregate {
  initialState() {
    return { wallets: [] as string[] };
  }
  @Apply(WalletAssigned)
  onAssigned(state: { wallets: string[] }, event: WalletAssigned) {
    state.wallets.push(event.walletId);
  }
}

/** Our saga (named EventSaga beside @nestjs/cqrs's Saga): every opened wallet becomes a fact on its owner. */
@EventSaga('wallet-owner')
export class WalletOwnerSaga {
  @OnEvent(WalletOpened)
  onOpened(event: WalletOpened, { envelope }: SagaContext) {
    return fact('owner', event.owner, new WalletAssigned(envelope.aggregateId), `wallet-${envelope.aggregateId}`);
  }
}

export class WalletWatched {
  constructor(readonly walletId: string) {}
}

/** A process manager whose own event is appended when a wallet opens. */
@ProcessManager('wallet-watch', { startsOn: [WalletOpened] })
export class WalletWatchProcess {
  initialState() {
    return { walletId: '' };
  }
  @OnEvent(WalletOpened)
  onOpened(_event: WalletOpened, ctx: ProcessContext) {
    return { events: [new WalletWatched(ctx.envelope!.aggregateId)] };
  }
  @Apply(WalletWatched)
  onWatched(state: { walletId: string }, event: WalletWatched) {
    state.walletId = event.walletId;
  }
}

export const WALLET_PROVIDERS = [WalletAggregate, OwnerAggregate, WalletOwnerSaga, WalletWatchProcess];
