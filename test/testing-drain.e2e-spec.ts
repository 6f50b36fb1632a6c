// `drain(app)` from @nest-es/core/testing: after it, every subscriber has handled everything, including
// what sagas and process managers emitted in turn, so a test can assert on what they produced.
import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AggregateReader, CommandGateway, EVENT_STORE, EventSourcingModule, inMemory, OnEvent, Projector, type EventStore } from '@nest-es/core';
import { deferred } from '@nest-es/core/internal';
import { drain } from '@nest-es/core/testing';
import { OpenWallet, WALLET_PROVIDERS, WalletOpened } from './support/wallet.domain.js';

describe('drain(app)', () => {
  let app: INestApplicationContext;

  beforeAll(async () => {
    @Module({ imports: [EventSourcingModule.forRoot({ adapter: inMemory(), processing: { pollIntervalMs: 200 } })], providers: WALLET_PROVIDERS })
    class WalletModule {}
    app = await NestFactory.createApplicationContext(WalletModule, { logger: false });
    await app.init();
  });

  afterAll(() => app?.close());

  it('returns once the saga and the process manager have reacted to every command sent', async () => {
    const gateway = app.get(CommandGateway);
    const reader = app.get(AggregateReader);
    for (let i = 0; i < 5; i++) await gateway.send(new OpenWallet(`w${i}`, 'olga'));
    await drain(app);
    expect((await reader.state('owner', 'olga')).state).toEqual({ wallets: ['w0', 'w1', 'w2', 'w3', 'w4'] });
    const watched = (await app.get<EventStore>(EVENT_STORE).readAll()).filter((event) => event.type === 'WalletWatched');
    expect(watched.map((event) => (event.payload as { walletId: string }).walletId)).toEqual(['w0', 'w1', 'w2', 'w3', 'w4']);
  });

  it('fails with the head position when the application cannot get quiet in time', async () => {
    const gate = deferred<void>();
    @Projector('stuck')
    class StuckProjector {
      @OnEvent(WalletOpened)
      async onOpened() {
        await gate.promise;
      }
    }
    @Module({ imports: [EventSourcingModule.forRoot({ adapter: inMemory() })], providers: [...WALLET_PROVIDERS, StuckProjector] })
    class StuckModule {}
    const stuck = await NestFactory.createApplicationContext(StuckModule, { logger: false });
    try {
      await stuck.init();
      await stuck.get(CommandGateway).send(new OpenWallet('late', 'oleg'));
      await expect(drain(stuck, { timeoutMs: 50 })).rejects.toThrow(/did not drain within 50 ms \(head position \d+\)/);
      gate.resolve();
      await drain(stuck);
    } finally {
      gate.resolve();
      await stuck.close();
    }
  });
});
