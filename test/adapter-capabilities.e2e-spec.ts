// An adapter whose event store has only the required port (no partition reads, correlation reads,
// stream listing or external-id lookups) goes through the same door as the built-in ones: the runtime
// reads partitions through readAll, and refuses at boot what needs a capability the store lacks.
import { Injectable, type INestApplicationContext, type Provider } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Module } from '@nestjs/common';
import { CommandGateway, EventSourcingModule, inMemory, OnEvent, Projector, SyncMode, type EventSourcingAdapter, type ProjectionContext } from '@nest-es/core';
import type { EventStore } from '@nest-es/core/adapter';
import { InMemoryEventStore, SnapshotRebuilder } from '@nest-es/core/internal';
import { describeEventStoreContract } from '@nest-es/core/testing';
import { AddMany, Added, CounterAggregate } from './support/counter.aggregate.js';
import { WALLET_PROVIDERS } from './support/wallet.domain.js';

/** An event store with only the required methods, over a full one. */
function bare(store: EventStore): EventStore {
  return {
    append: (request) => store.append(request),
    readStream: (stream, options) => store.readStream(stream, options),
    streamSequence: (stream) => store.streamSequence(stream),
    readAll: (options) => store.readAll(options),
    headPosition: () => store.headPosition(),
    findCommand: (stream, commandId) => store.findCommand(stream, commandId),
  };
}

/** The in-memory adapter, with its event store cut down to the required methods. */
function requiredPortOnly(): EventSourcingAdapter {
  const full = inMemory();
  return {
    name: 'bare',
    async open(context) {
      const ports = await full.open(context);
      return { ...ports, events: bare(ports.events) };
    },
    close: () => full.close(),
  };
}

// The contract suite holds such a store to the required methods alone.
describeEventStoreContract('required methods only', async () => ({ store: bare(new InMemoryEventStore()), close: async () => undefined }), { capabilities: [] });

@Projector('added-seen', { batchSize: 3 })
@Injectable()
class AddedSeen {
  readonly seen: string[] = [];

  @OnEvent(Added)
  onAdded(event: Added, { envelope }: ProjectionContext) {
    this.seen.push(`${envelope.aggregateId}:${event.part}`);
  }
}

async function boot(...providers: Provider[]): Promise<INestApplicationContext> {
  @Module({ imports: [EventSourcingModule.forRoot({ adapter: requiredPortOnly(), processing: { pollIntervalMs: 20, scaleOut: { partitions: 1 } } })], providers })
  class AppModule {}
  const app = await NestFactory.createApplicationContext(AppModule, { logger: false, abortOnError: false });
  await app.init();
  return app;
}

describe('an adapter with only the required event-store port', () => {
  it('runs commands, projectors and their sync waits: subscriptions read through readAll when the store cannot read partitions', async () => {
    const app = await boot(CounterAggregate, AddedSeen);
    try {
      const gateway = app.get(CommandGateway);
      // More events than the projector's batch, over several aggregates: pages of readAll are filtered and followed.
      for (const id of ['a', 'b', 'c']) await gateway.send(new AddMany(id, 4), { syncMode: SyncMode.SIMPLE });
      expect(app.get(AddedSeen).seen).toEqual(['a', 'b', 'c'].flatMap((id) => [1, 2, 3, 4].map((part) => `${id}:${part}`)));
      // Without sagas or process managers nothing cascades: CASCADE needs no correlation reads.
      await gateway.send(new AddMany('d', 1), { syncMode: SyncMode.CASCADE });
      expect(app.get(AddedSeen).seen.at(-1)).toBe('d:1');
    } finally {
      await app.close();
    }
  });

  it('refuses to boot sagas and process managers, naming the capability they need', async () => {
    const failure = await boot(...WALLET_PROVIDERS).then(
      (app) => app.close().then(() => 'booted'),
      (error: unknown) => String(error),
    );
    expect(failure).toMatch(/the "bare" adapter's event store has no readByCorrelation\(\), which CASCADE waits on sagas and process managers need/);
  });

  it('refuses a snapshot rebuild, naming streamIds', async () => {
    const app = await boot(CounterAggregate);
    try {
      await expect(app.get(SnapshotRebuilder).rebuild('counter')).rejects.toThrow(/has no streamIds\(\), which snapshot rebuilds need/);
    } finally {
      await app.close();
    }
  });
});
