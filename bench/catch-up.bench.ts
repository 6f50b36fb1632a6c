import { randomUUID } from 'node:crypto';
import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EVENT_STORE, EventSourcingModule, OnEvent, Projector, type EventStore, type NewEvent, type ProjectionContext } from '@nest-es/core';
import { type StoreOptions, typeorm } from '@nest-es/typeorm';
import { AccountAggregate, Deposited } from './bench-aggregates.js';
import { round } from './stats.js';
import { EventProcessor, eventTypeName } from '@nest-es/core/internal';

/* Projection catch-up: a projector starting from position 0 over a store that already holds many
   events (a rebuild from zero, or a projector back after downtime) reads them in batches, each
   projected in one transaction that also moves its checkpoint. */

export const CATCH_UP = 'bench-catch-up';

/**
 * Keeps balances in memory: the figure is what the framework costs per event caught up (reading,
 * decoding, dispatching, a transaction and a checkpoint per batch), not a read model's own writes.
 */
@Projector(CATCH_UP)
export class CatchUpProjector {
  readonly balances = new Map<string, number>();
  handled = 0;

  @OnEvent(Deposited)
  onDeposited(event: Deposited, { envelope }: ProjectionContext): void {
    this.balances.set(envelope.aggregateId, (this.balances.get(envelope.aggregateId) ?? 0) + event.amount);
    this.handled++;
  }
}

@Module({ providers: [AccountAggregate, CatchUpProjector] })
class CatchUpBenchModule {}

function bootCatchUpApp(store: StoreOptions, processing: boolean): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(
    { module: CatchUpBenchModule, imports: [EventSourcingModule.forRoot({ adapter: typeorm(store), processing: { enabled: processing } })] },
    { logger: ['error', 'warn'] },
  );
}

export interface CatchUpFigures {
  events: number;
  /** Seeding the store through its append, many events a request. */
  seedEventsPerSec: number;
  catchUpMs: number;
  eventsPerSec: number;
}

const STREAM_EVENTS = 1000;
const SEEDERS = 4;

/** Writes `events` deposits to streams of `streamEvents` events, one request per stream, straight through the store. */
export async function seedDeposits(store: EventStore, events: number, streamEvents = STREAM_EVENTS): Promise<void> {
  const type = eventTypeName(Deposited);
  const streams = Math.ceil(events / streamEvents);
  let next = 0;
  await Promise.all(
    Array.from({ length: SEEDERS }, async () => {
      for (let stream = next++; stream < streams; stream = next++) {
        const aggregateId = `catch-up-${stream}`;
        const correlationId = randomUUID();
        const count = Math.min(streamEvents, events - stream * streamEvents);
        const batch: NewEvent[] = Array.from({ length: count }, () => ({
          type,
          payload: { amount: 1 },
          metadata: { eventId: randomUUID(), commandId: null, correlationId, causationId: null },
        }));
        await store.append({ stream: { aggregateType: 'bench-account', aggregateId }, expectedSequence: 0, events: batch });
      }
    }),
  );
}

/** Seeds `events` events, then times a projector catching up over them from position 0 in an app of its own. */
export async function measureCatchUp(store: StoreOptions, events: number): Promise<CatchUpFigures> {
  const seeder = await bootCatchUpApp(store, false);
  let head: number;
  const seedStarted = performance.now();
  try {
    const eventStore = seeder.get<EventStore>(EVENT_STORE);
    await seedDeposits(eventStore, events);
    head = await eventStore.headPosition();
  } finally {
    await seeder.close();
  }
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  const started = performance.now();
  const app = await bootCatchUpApp(store, true);
  try {
    const processor = app.get(EventProcessor);
    const deadline = started + 600_000;
    while ((processor.position(CATCH_UP) ?? 0) < head && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    const catchUpMs = performance.now() - started;
    const handled = app.get(CatchUpProjector).handled;
    if (handled !== events) throw new Error(`the catch-up projector handled ${handled} of ${events} events`);
    return { events, seedEventsPerSec: round(events / seedSeconds), catchUpMs: round(catchUpMs), eventsPerSec: round(events / (catchUpMs / 1000)) };
  } finally {
    await app.close();
  }
}
