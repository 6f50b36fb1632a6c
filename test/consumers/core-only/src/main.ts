import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AggregateReader, CommandGateway, EventSourcingError, EventSourcingModule, OnEvent, Projector, SyncMode, inMemory, type ProjectionContext } from '@nest-es/core';
import { AccountAggregate, Deposit, Deposited, OpenAccount } from './account.aggregate.js';

/** A read model in memory: the in-memory adapter hands projectors no transaction. */
@Projector('balances')
class BalancesProjector {
  readonly balances = new Map<string, number>();

  @OnEvent(Deposited)
  onDeposited(event: Deposited, { envelope }: ProjectionContext) {
    this.balances.set(envelope.aggregateId, event.balance);
  }
}

@Module({
  imports: [EventSourcingModule.forRoot({ adapter: inMemory() })],
  providers: [AccountAggregate, BalancesProjector],
})
class AppModule {}

/** Boots without HTTP, sends commands through the gateway, reads them back, closes and prints what it saw. */
async function main() {
  const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error', 'warn'] });
  const gateway = app.get(CommandGateway);
  const opened = await gateway.send(Object.assign(new OpenAccount(), { accountId: 'acc-1', owner: 'Ada' }));
  const deposited = await gateway.send(Object.assign(new Deposit(), { accountId: 'acc-1', amount: 250 }), { syncMode: SyncMode.SIMPLE });
  const projected = app.get(BalancesProjector).balances.get('acc-1');
  const read = await app.get(AggregateReader).state('account', 'acc-1');
  const refusal = await gateway.send(Object.assign(new Deposit(), { accountId: 'acc-2', amount: 1 })).then(
    () => undefined,
    (error: unknown) => (error instanceof EventSourcingError ? error.code : String(error)),
  );
  await app.close();
  console.log(`result ${JSON.stringify({ opened: opened.sequence, deposited: deposited.sequence, projected, read, refusal })}`);
}

// No process.exit: the process ends by itself once the application is closed, or the run times out.
main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
