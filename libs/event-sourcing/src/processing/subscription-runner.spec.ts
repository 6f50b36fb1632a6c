// A subscription that is behind reads the next batch while the current one is handled, and drops such
// a read when the checkpoint moved under it. Real store and checkpoints (the database under test).
import { randomUUID } from 'node:crypto';
import { openTestDataSource, type TestDataSource } from '../../../../test/support/test-database.js';
import type { SubscriberDefinition } from '../discovery/subscriber-definition.js';
import { EventNotifier } from '../runtime/event-notifier.js';
import type { StoredEvent } from '../model/event-envelope.js';
import type { EventStore, ReadAllOptions } from '../store/event-store.js';
import { TypeOrmCheckpointStore, TypeOrmEventStore } from '../store/typeorm/index.js';
import type { BatchHandler } from './batch-handler.js';
import { SubscriptionRunner } from './subscription-runner.js';

let db: TestDataSource;
let store: TypeOrmEventStore;
let checkpoints: TypeOrmCheckpointStore;

beforeAll(async () => {
  db = await openTestDataSource();
  store = await TypeOrmEventStore.create(db.dataSource);
  checkpoints = new TypeOrmCheckpointStore(db.dataSource);
});

afterAll(async () => {
  await db?.close();
});

const BATCH = 10;

function subscriber(name: string): SubscriberDefinition {
  return { name, kind: 'projector', classRef: Object, instance: {}, options: { batchSize: BATCH }, handlers: new Map([['Ticked', () => undefined]]) };
}

/** `count` events on a new stream; the positions they got. */
async function append(count: number): Promise<number[]> {
  const { events } = await store.append({
    stream: { aggregateType: 'runner', aggregateId: randomUUID() },
    expectedSequence: 0,
    events: Array.from({ length: count }, () => ({
      type: 'Ticked',
      payload: {},
      metadata: { eventId: randomUUID(), commandId: null, correlationId: 'runner', causationId: null },
    })),
  });
  return events.map((event) => event.position);
}

/** The store, with every readAll it is asked for noted (real reads). */
function notingReads(): { store: EventStore; reads: ReadAllOptions[] } {
  const reads: ReadAllOptions[] = [];
  const noting = Object.create(store) as EventStore;
  noting.readAll = (options: ReadAllOptions = {}) => {
    reads.push(options);
    return store.readAll(options);
  };
  return { store: noting, reads };
}

const settings = { pollIntervalMs: 20, idleCheckpointIntervalMs: 5_000 };

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 10_000) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('SubscriptionRunner', () => {
  it('reads the next batch while it handles a full one, and delivers every event once in order', async () => {
    const from = await store.headPosition();
    const positions = await append(3 * BATCH + 4);
    const { store: noting, reads } = notingReads();
    const handled: number[][] = [];
    const readsWhileHandling: number[] = [];
    const handler: BatchHandler = {
      async handle(events: StoredEvent[], _from: number, to: number) {
        readsWhileHandling.push(reads.filter((read) => (read.afterPosition ?? 0) >= from).length);
        handled.push(events.map((event) => event.position));
        await checkpoints.save('ahead', to);
        return true;
      },
      redeliver: async () => undefined,
    };
    await checkpoints.save('ahead', from);
    const runner = new SubscriptionRunner(subscriber('ahead'), handler, noting, checkpoints, new EventNotifier(), settings);
    await runner.start();
    try {
      await until(() => runner.currentPosition === positions[positions.length - 1]);
    } finally {
      await runner.stop();
    }
    expect(handled.flat()).toEqual(positions);
    expect(handled.map((batch) => batch.length)).toEqual([BATCH, BATCH, BATCH, 4]);
    // Handling batch k (full), the read of batch k + 1 was already asked for: k + 1 reads, not k.
    expect(readsWhileHandling).toEqual([2, 3, 4, 4]);
  });

  it('drops a read ahead when another instance moved the checkpoint, and goes on from there', async () => {
    const from = await store.headPosition();
    const positions = await append(3 * BATCH);
    const handled: number[][] = [];
    let first = true;
    const handler: BatchHandler = {
      async handle(events: StoredEvent[], _from: number, to: number) {
        if (first) {
          // Another instance projected the first two batches and checkpointed: this one commits nothing.
          first = false;
          await checkpoints.save('moved', positions[2 * BATCH - 1]);
          return false;
        }
        handled.push(events.map((event) => event.position));
        await checkpoints.save('moved', to);
        return true;
      },
      redeliver: async () => undefined,
    };
    await checkpoints.save('moved', from);
    const runner = new SubscriptionRunner(subscriber('moved'), handler, store, checkpoints, new EventNotifier(), settings);
    await runner.start();
    try {
      await until(() => runner.currentPosition === positions[positions.length - 1]);
    } finally {
      await runner.stop();
    }
    expect(handled.flat()).toEqual(positions.slice(2 * BATCH));
  });
});
