import { Aggregate, AggregateId, Apply, CommandHandler, type CommandContext } from '@nest-es/core';
import { IsInt, IsPositive, IsString, Max } from 'class-validator';

/** The command of the write-path figures: one event per command, validated like any real command. */
export class Deposit {
  @AggregateId() @IsString() accountId: string;
  @IsInt() @IsPositive() amount: number;

  constructor(accountId: string, amount: number) {
    this.accountId = accountId;
    this.amount = amount;
  }
}

export class Deposited {
  constructor(readonly amount: number) {}
}

@Aggregate('bench-account')
export class AccountAggregate {
  initialState(): { balance: number } {
    return { balance: 0 };
  }

  @CommandHandler(Deposit, { emits: [Deposited], http: true })
  deposit(command: Deposit): Deposited {
    return new Deposited(command.amount);
  }

  @Apply(Deposited)
  onDeposited(state: { balance: number }, event: Deposited): void {
    state.balance += event.amount;
  }
}

/** Seeds the rebuild figures: `count` events in one command (one append). */
export class RecordEntries {
  @AggregateId() @IsString() ledgerId: string;
  @IsInt() @IsPositive() @Max(10_000) count: number;

  constructor(ledgerId: string, count: number) {
    this.ledgerId = ledgerId;
    this.count = count;
  }
}

export class EntryRecorded {
  constructor(
    readonly amount: number,
    readonly memo: string,
  ) {}
}

export const LEDGER = 'bench-ledger';
export const SNAPSHOT_EVERY = 1000;

@Aggregate(LEDGER, { snapshot: { every: SNAPSHOT_EVERY } })
export class LedgerAggregate {
  initialState(): { entries: number; balance: number } {
    return { entries: 0, balance: 0 };
  }

  @CommandHandler(RecordEntries, { emits: [EntryRecorded] })
  record(command: RecordEntries, _state: unknown, context: CommandContext): EntryRecorded[] {
    return Array.from({ length: command.count }, (_, i) => new EntryRecorded((i % 100) + 1, `entry ${context.sequence + i + 1}`));
  }

  @Apply(EntryRecorded)
  onRecorded(state: { entries: number; balance: number }, event: EntryRecorded): void {
    state.entries++;
    state.balance += event.amount;
  }
}
