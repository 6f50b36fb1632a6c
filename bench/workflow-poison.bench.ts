import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Apply, CommandGateway, emit, EventSourcingModule, OnEvent, ProcessManager, type ProcessContext, type ProcessReaction, Saga, type SagaContext, SyncMode } from '@nest-es/core';
import { type StoreOptions, typeorm } from '@nest-es/typeorm';
import { AccountAggregate, Deposit, Deposited, LedgerAggregate, RecordEntries } from './bench-aggregates.js';
import { type Poisoned, whilePoisoned } from './while-poisoned.js';
import { distribution, timeEach, type Distribution } from './stats.js';

/* Poison isolation for workflows: SIMPLE and CASCADE deposits of one caller on healthy accounts while
   a saga and a process manager keep failing on another account's deposits (each retried with the
   default backoff, 5 attempts, about 1.7 s, then dead-lettered), against the same without a poison. */

const POISONED = 'poisoned';

/** Books each deposit on its account's ledger; a deposit of the poisoned account throws. */
@Saga('bench-booking')
export class BookingSaga {
  @OnEvent(Deposited)
  onDeposited(_event: Deposited, ctx: SagaContext) {
    if (ctx.envelope.aggregateId === POISONED) throw new Error('the booking system refuses this account');
    return emit(RecordEntries, { ledgerId: `ledger-${ctx.envelope.aggregateId}`, count: 1 });
  }
}

export class DepositSeen {
  constructor(readonly amount: number) {}
}

/** Counts each account's deposits, one instance per account; the poisoned account's throw. */
@ProcessManager('bench-deposit-watch', { startsOn: [Deposited], key: (_event, envelope) => envelope.aggregateId })
export class DepositWatchProcess {
  initialState(): { deposits: number } {
    return { deposits: 0 };
  }

  @OnEvent(Deposited)
  onDeposited(event: Deposited, ctx: ProcessContext<{ deposits: number }>): ProcessReaction {
    if (ctx.key === POISONED) throw new Error('the watch list refuses this account');
    return { events: [new DepositSeen(event.amount)] };
  }

  @Apply(DepositSeen)
  onSeen(state: { deposits: number }): void {
    state.deposits++;
  }
}

type ByMode = { simple: Distribution; cascade: Distribution };

export interface WorkflowPoisonFigures extends Omit<Poisoned<ByMode>, 'measured'> {
  /** SIMPLE and CASCADE deposits on healthy accounts, no poison. */
  healthy: ByMode;
  /** The same while the poisoned account's deposits are being retried by both workflows. */
  poisoned: ByMode;
}

@Module({ providers: [AccountAggregate, LedgerAggregate, BookingSaga, DepositWatchProcess] })
class WorkflowPoisonBenchModule {}

/** `samples` SIMPLE and `samples` CASCADE deposits without a poison, then the same while poison events keep arriving. */
export async function measureWorkflowPoison(store: StoreOptions, samples: number): Promise<WorkflowPoisonFigures> {
  const app = await NestFactory.createApplicationContext(
    { module: WorkflowPoisonBenchModule, imports: [EventSourcingModule.forRoot({ adapter: typeorm(store), syncTimeoutMs: 30_000 })] },
    { logger: false },
  );
  try {
    const gateway = app.get(CommandGateway);
    const send = (prefix: string, syncMode: SyncMode) => (i: number) => gateway.send(Deposit, { accountId: `${prefix}-${i % 100}`, amount: 1 }, { syncMode });
    const both = async (prefix: string) => ({
      simple: distribution(await timeEach(samples, send(`${prefix}-simple`, SyncMode.SIMPLE))),
      cascade: distribution(await timeEach(samples, send(`${prefix}-cascade`, SyncMode.CASCADE))),
    });
    await timeEach(50, send('warm', SyncMode.CASCADE));
    const healthy = await both('healthy');

    const { measured: poisoned, ...poison } = await whilePoisoned(app, () => gateway.send(Deposit, { accountId: POISONED, amount: 1 }), () => both('other'));
    return { healthy, poisoned, ...poison };
  } finally {
    await app.close();
  }
}
