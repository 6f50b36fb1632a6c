import { spawnSync } from 'node:child_process';
import type { INestApplication, ModuleMetadata } from '@nestjs/common';
import { CommandBus, CommandHandler as CqrsCommandHandler, CommandHandlerNotFoundException, CqrsModule, EventBus, type ICommandHandler } from '@nestjs/cqrs';
import { Test } from '@nestjs/testing';
import {
  AggregateReader,
  BootValidationError,
  CommandGateway,
  ErrorCode,
  EVENT_STORE,
  EventSourcingError,
  EventSourcingModule,
  SyncMode,
  type CommandResult,
} from '@nest-es/core';
import { EventSourcingCqrsModule, storedEventOf, withOptions } from '@nest-es/core/cqrs';
import { createTestStore, type TestStore } from './support/test-store.js';
import { Receipts, SendReceipt, StoredEventAudit, WALLET_CQRS_PROVIDERS } from './support/wallet.cqrs.js';
import { DepositFunds, FundsDeposited, FundsWithdrawn, OpenWallet, WalletAssigned, WALLET_PROVIDERS, WalletWatched, WithdrawFunds } from './support/wallet.domain.js';
import { typeorm } from '@nest-es/typeorm';
import type { CapableEventStore } from '@nest-es/core/internal';

const WITH_CQRS: ModuleMetadata['imports'] = [CqrsModule.forRoot(), EventSourcingCqrsModule];

function createApp(store: TestStore, imports: ModuleMetadata['imports'], providers: ModuleMetadata['providers']): Promise<INestApplication> {
  return Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options), processing: { pollIntervalMs: 50 } }), ...(imports ?? [])],
    providers,
  })
    .compile()
    .then((moduleRef) => moduleRef.createNestApplication({ logger: false }));
}

async function bootFailure(store: TestStore, imports: ModuleMetadata['imports'], providers: ModuleMetadata['providers']): Promise<unknown> {
  const app = await createApp(store, imports, providers);
  try {
    await app.init();
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await app.close();
  }
}

async function eventually<T>(read: () => T | undefined, timeoutMs = 4_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 10))) {
    const value = read();
    if (value !== undefined) return value;
  }
  throw new Error(`nothing turned up within ${timeoutMs} ms`);
}

describe('@nestjs/cqrs bridge', () => {
  let store: TestStore;

  beforeAll(async () => {
    store = await createTestStore();
  });

  afterAll(async () => {
    await store.cleanup();
  });

  describe('in an app with CqrsModule and EventSourcingCqrsModule', () => {
    let app: INestApplication;
    let commandBus: CommandBus;
    let gateway: CommandGateway;
    /** Everything the EventBus carried, in order. */
    const published: object[] = [];
    const publishedOf = (walletId: string) => published.filter((event) => storedEventOf(event)?.aggregateId === walletId);

    beforeAll(async () => {
      app = await createApp(store, WITH_CQRS, [...WALLET_PROVIDERS, ...WALLET_CQRS_PROVIDERS]);
      await app.init();
      commandBus = app.get(CommandBus);
      gateway = app.get(CommandGateway);
      app.get(EventBus).subscribe((event) => published.push(event));
    });

    afterAll(async () => {
      await app.close();
    });

    it('CommandBus.execute reaches our aggregate, which stores the events, and returns what the gateway returns', async () => {
      const viaBus: CommandResult = await commandBus.execute(new OpenWallet('w-bus', 'ann'));
      const viaGateway = await gateway.send(new DepositFunds('w-bus', 10));
      expect(viaBus).toMatchObject({ aggregateType: 'wallet', aggregateId: 'w-bus', sequence: 1, duplicate: false });
      expect(viaBus.events).toMatchObject([{ type: 'WalletOpened', sequence: 1, payload: { owner: 'ann' }, metadata: { commandId: viaBus.commandId } }]);
      expect(Object.keys(viaBus).sort()).toEqual(Object.keys(viaGateway).sort());
      const stored = await app.get(AggregateReader).events('wallet', 'w-bus');
      expect(stored.map((event) => event.metadata.eventId)).toEqual([...viaBus.events, ...viaGateway.events].map((event) => event.metadata.eventId));
    });

    it('hands each stored event to @EventsHandler classes after its commit, as an instance of its class with its stored metadata', async () => {
      await gateway.send(new OpenWallet('w-audit', 'bo'));
      const result: CommandResult = await commandBus.execute(new DepositFunds('w-audit', 7));
      const audit = app.get(StoredEventAudit);
      const sighting = await eventually(() => audit.seen.find(({ event }) => storedEventOf(event)?.metadata.eventId === result.events[0].metadata.eventId));
      expect(sighting.inStoreWhenHandled).toBe(true);
      expect(sighting.event).toBeInstanceOf(FundsDeposited);
      expect(sighting.event).toEqual(new FundsDeposited(7, 7));
      expect(storedEventOf(sighting.event)).toMatchObject({
        aggregateType: 'wallet',
        aggregateId: 'w-audit',
        sequence: 2,
        position: result.events[0].position,
        metadata: { commandId: result.commandId, correlationId: result.commandId },
      });
    });

    it('feeds ofType sagas of @nestjs/cqrs, whose commands go to their own @nestjs/cqrs handler', async () => {
      await commandBus.execute(new DepositFunds('w-saga', 3));
      const receipt = await eventually(() => app.get(Receipts).sent.find((sent) => sent.walletId === 'w-saga'));
      expect(receipt).toEqual(new SendReceipt('w-saga', 3));
    });

    it('publishes nothing for a refused command', async () => {
      await gateway.send(new OpenWallet('w-refused', 'cy'));
      const refused = await commandBus.execute(new WithdrawFunds('w-refused', 5)).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(EventSourcingError);
      expect((refused as EventSourcingError).code).toBe(ErrorCode.FAILED_PRECONDITION);
      // Publication keeps the order of appends: once the next command's event is out, the refused one's would be too.
      const next: CommandResult = await commandBus.execute(new DepositFunds('w-refused', 1));
      await eventually(() => publishedOf('w-refused').find((event) => storedEventOf(event)?.metadata.eventId === next.events[0].metadata.eventId));
      expect(publishedOf('w-refused').map((event) => event.constructor.name)).toEqual(['WalletOpened', 'FundsDeposited']);
      expect(publishedOf('w-refused').some((event) => event instanceof FundsWithdrawn)).toBe(false);
    });

    it('leaves commands our aggregates do not handle to @nestjs/cqrs', async () => {
      expect(gateway.handles(new SendReceipt('w-direct', 1))).toBe(false);
      await expect(commandBus.execute(new SendReceipt('w-direct', 1))).resolves.toBe('receipt for w-direct');
      expect(app.get(Receipts).sent).toContainEqual(new SendReceipt('w-direct', 1));
      class NobodyHandles {}
      expect(() => commandBus.execute(new NobodyHandles())).toThrow(CommandHandlerNotFoundException);
    });

    it('takes expected sequence, command id and sync mode riding on the command', async () => {
      await commandBus.execute(new OpenWallet('w-options', 'di'));
      const stale = await commandBus.execute(withOptions(new DepositFunds('w-options', 5), { expectedSequence: 0 })).catch((error: unknown) => error);
      expect(stale).toBeInstanceOf(EventSourcingError);
      expect((stale as EventSourcingError).code).toBe(ErrorCode.SEQUENCE_MISMATCH);
      const first: CommandResult = await commandBus.execute(withOptions(new DepositFunds('w-options', 5), { expectedSequence: 1, commandId: 'deposit-once' }));
      expect(first).toMatchObject({ sequence: 2, commandId: 'deposit-once', duplicate: false });
      const again: CommandResult = await commandBus.execute(withOptions(new DepositFunds('w-options', 5), { commandId: 'deposit-once' }));
      expect(again).toMatchObject({ sequence: 2, commandId: 'deposit-once', duplicate: true });
      expect(await app.get(AggregateReader).events('wallet', 'w-options')).toHaveLength(2);

      // CASCADE returns only once the saga's fact and the process manager's event are stored.
      const opened: CommandResult = await commandBus.execute(withOptions(new OpenWallet('w-cascade', 'ed'), { syncMode: SyncMode.CASCADE }));
      const consequences = await app.get<CapableEventStore>(EVENT_STORE).readByCorrelation(opened.commandId);
      expect(consequences.map((event) => event.type).sort()).toEqual(['WalletAssigned', 'WalletOpened', 'WalletWatched']);
    });

    it('publishes events appended by facts and by process managers too', async () => {
      const opened: CommandResult = await commandBus.execute(new OpenWallet('w-fact', 'flo'));
      const audit = app.get(StoredEventAudit);
      const fact = await eventually(() => audit.seen.find(({ event }) => event instanceof WalletAssigned && event.walletId === 'w-fact'));
      const watched = await eventually(() => audit.seen.find(({ event }) => event instanceof WalletWatched && event.walletId === 'w-fact'));
      for (const sighting of [fact, watched]) {
        expect(sighting.inStoreWhenHandled).toBe(true);
        expect(storedEventOf(sighting.event)?.metadata.correlationId).toBe(opened.commandId);
      }
      expect(storedEventOf(fact.event)).toMatchObject({ aggregateType: 'owner', aggregateId: 'flo', metadata: { externalId: 'wallet-w-fact' } });
      expect(storedEventOf(watched.event)).toMatchObject({ aggregateType: 'wallet-watch', aggregateId: opened.commandId });
    });
  });

  describe('at boot', () => {
    it('fails when a command class has both an aggregate handler and a @nestjs/cqrs handler', async () => {
      @CqrsCommandHandler(DepositFunds)
      class LegacyDepositHandler implements ICommandHandler<DepositFunds> {
        async execute(): Promise<void> {}
      }
      const error = await bootFailure(store, WITH_CQRS, [...WALLET_PROVIDERS, LegacyDepositHandler]);
      expect(error).toBeInstanceOf(BootValidationError);
      expect((error as Error).message).toContain('command DepositFunds is handled by WalletAggregate.deposit');
      expect((error as Error).message).toContain('@nestjs/cqrs handler LegacyDepositHandler');
    });

    it('fails with a clear message when EventSourcingCqrsModule comes without CqrsModule.forRoot()', async () => {
      const error = await bootFailure(store, [EventSourcingCqrsModule], WALLET_PROVIDERS);
      expect(error).toBeInstanceOf(BootValidationError);
      expect((error as Error).message).toContain('needs CqrsModule.forRoot()');
    });
  });

  describe('without @nestjs/cqrs', () => {
    it('the library boots and works in an app that composes no @nestjs/cqrs module', async () => {
      const app = await createApp(store, [], WALLET_PROVIDERS);
      await app.init();
      try {
        const gateway = app.get(CommandGateway);
        await gateway.send(new OpenWallet('w-plain', 'gus'));
        await expect(gateway.send(new DepositFunds('w-plain', 4))).resolves.toMatchObject({ sequence: 2 });
        expect(() => app.get(CommandBus, { strict: false })).toThrow();
      } finally {
        await app.close();
      }
    });

    // On the build (test/setup/build.global-setup.js), with a resolve hook that refuses @nestjs/cqrs.
    const refuseCqrs = `export async function resolve(specifier, context, next) {
      if (specifier === '@nestjs/cqrs' || specifier.startsWith('@nestjs/cqrs/')) throw new Error('REFUSED @nestjs/cqrs for ' + context.parentURL);
      return next(specifier, context);
    }`;
    const importRefusingCqrs = (entry: string) =>
      spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(refuseCqrs)})); await import(process.argv[1]);`,
          entry,
        ],
        { encoding: 'utf8' },
      );

    it('importing the library entry does not load @nestjs/cqrs; importing the bridge entry does', () => {
      const base = importRefusingCqrs('@nest-es/core');
      expect(base.stderr).toBe('');
      expect(base.status).toBe(0);
      const bridge = importRefusingCqrs('@nest-es/core/cqrs');
      expect(bridge.status).not.toBe(0);
      expect(bridge.stderr).toContain('REFUSED @nestjs/cqrs');
    });
  });
});
