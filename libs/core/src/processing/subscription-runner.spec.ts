// A subscription that is behind reads the next batch while the current one is handled, and drops such
// a read when the checkpoint moved under it. Real (in-memory) store and checkpoints.
import { randomUUID } from 'node:crypto';
import type { SubscriberDefinition } from '../discovery/subscriber-definition.js';
import { EventNotifier } from '../runtime/event-notifier.js';
import type { StoredEvent } from '../model/event-envelope.js';
import type { PartitionReads, ReadPartitionOptions } from '../store/event-store.js';
import { partitionOfKey, WHOLE } from '../discovery/subscriber-partitions.js';
import { InMemoryCheckpointStore } from '../store/memory/in-memory-checkpoint-store.js';
import { InMemoryEventStore } from '../store/memory/in-memory-event-store.js';
import type { BatchHandler } from './batch-handler.js';
import { SubscriptionRunner } from './subscription-runner.js';
import { WorkflowActivity } from './workflow-activity.js';

const store = new InMemoryEventStore();
const checkpoints = new InMemoryCheckpointStore();

const BATCH = 10;

function subscriber(name: string): SubscriberDefinition {
  return { name, kind: 'projector', classRef: Object, instance: {}, options: { batchSize: BATCH }, handlers: new Map([['Ticked', () => undefined]]) };
}

/** `count` events on a new stream (of the id given, or a new one); the events stored. */
async function appendEvents(count: number, aggregateId: string = randomUUID(), type = 'Ticked'): Promise<StoredEvent[]> {
  const { events } = await store.append({
    stream: { aggregateType: 'runner', aggregateId },
    expectedSequence: 0,
    events: Array.from({ length: count }, () => ({
      type,
      payload: {},
      metadata: { eventId: randomUUID(), commandId: null, correlationId: 'runner', causationId: null },
    })),
  });
  return events;
}

/** `count` events on a new stream (of the id given, or a new one); the positions they got. */
async function append(count: number, aggregateId?: string): Promise<number[]> {
  return (await appendEvents(count, aggregateId)).map((event) => event.position);
}

/** The store, with every read of a partition it is asked for noted (real reads). */
function notingReads(): { store: PartitionReads; reads: ReadPartitionOptions[] } {
  const reads: ReadPartitionOptions[] = [];
  const noting = Object.create(store) as PartitionReads;
  noting.readPartition = (options: ReadPartitionOptions) => {
    reads.push(options);
    return store.readPartition(options);
  };
  return { store: noting, reads };
}

/** An aggregate id in the partition `index` of `count`. */
function idIn(index: number, count: number): string {
  for (;;) {
    const id = randomUUID();
    if (partitionOfKey(id, count) === index) return id;
  }
}

const settings = { pollIntervalMs: 20, idleCheckpointIntervalMs: 5_000 };
/** No poll within a test: only the wake-ups of appends move the subscription. */
const noPoll = { pollIntervalMs: 600_000, idleCheckpointIntervalMs: 5_000 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

  it('reads only its partition and handled types, and moves its checkpoint past the other partitions\' events', async () => {
    const from = await store.headPosition();
    const ours = [...(await append(3, idIn(1, 3))), ...(await append(2, idIn(1, 3)))];
    const theirs = [...(await append(4, idIn(0, 3))), ...(await append(4, idIn(2, 3)))];
    const { store: noting, reads } = notingReads();
    const handled: number[] = [];
    const handler: BatchHandler = {
      async handle(events: StoredEvent[], _from: number, to: number) {
        handled.push(...events.map((event) => event.position));
        await checkpoints.save('partitioned#1/3', to);
        return true;
      },
      redeliver: async () => undefined,
    };
    await checkpoints.save('partitioned#1/3', from);
    const runner = new SubscriptionRunner(subscriber('partitioned'), handler, noting, checkpoints, new EventNotifier(), settings, { index: 1, count: 3 });
    const head = theirs[theirs.length - 1];
    await runner.start();
    try {
      await until(() => runner.currentPosition === head);
    } finally {
      await runner.stop();
    }
    expect(handled).toEqual(ours);
    expect(reads.every((read) => read.partition.index === 1 && read.partition.count === 3)).toBe(true);
    expect(reads.every((read) => read.types?.join() === 'Ticked')).toBe(true);
    expect(await checkpoints.load('partitioned#1/3')).toBe(head);
  });

  it('moves an idle partition to the head when only other partitions got events', async () => {
    const from = await store.headPosition();
    const theirs = await append(5, idIn(0, 2));
    const handler: BatchHandler = {
      async handle() {
        throw new Error('no event of partition 1 was appended');
      },
      redeliver: async () => undefined,
    };
    await checkpoints.save('idle#1/2', from);
    const runner = new SubscriptionRunner(subscriber('idle'), handler, store, checkpoints, new EventNotifier(), settings, { index: 1, count: 2 });
    await runner.start();
    try {
      await until(() => runner.currentPosition === theirs[theirs.length - 1]);
    } finally {
      await runner.stop();
    }
    // Saved at stop: the next start does not read those events again.
    expect(await checkpoints.load('idle#1/2')).toBe(theirs[theirs.length - 1]);
  });

  describe('caught up, woken by appends', () => {
    /** A runner at the head with no poll, its reads of the store noted, and what it handled. */
    async function caughtUp(name: string) {
      const { store: noting, reads } = notingReads();
      const notifier = new EventNotifier();
      const handled: number[] = [];
      const delivered: StoredEvent[] = [];
      const handler: BatchHandler = {
        async handle(events: StoredEvent[], _from: number, to: number) {
          handled.push(...events.map((event) => event.position));
          delivered.push(...events);
          await checkpoints.save(name, to);
          return true;
        },
        redeliver: async () => undefined,
      };
      const head = await store.headPosition();
      await checkpoints.save(name, head);
      const runner = new SubscriptionRunner(subscriber(name), handler, noting, checkpoints, notifier, noPoll);
      await runner.start();
      await until(() => reads.length === 1);
      return { runner, reads, notifier, handled, delivered };
    }

    it("passes this process's appends of events it ignores, and takes those it handles as a read gives them, without a read", async () => {
      const { runner, reads, notifier, handled, delivered } = await caughtUp('takes');
      try {
        const ignored = await appendEvents(3, undefined, 'Tocked');
        notifier.appended(ignored);
        await until(() => runner.currentPosition === ignored[2].position);
        const ticked = await appendEvents(2);
        notifier.appended(ticked);
        await until(() => handled.length === 2);
        expect(handled).toEqual(ticked.map((event) => event.position));
        expect(delivered).toStrictEqual(await store.readAll({ afterPosition: ignored[2].position, limit: 2 }));
        expect(reads).toHaveLength(1);
        expect(await checkpoints.load('takes')).toBe(ticked[1].position);
      } finally {
        await runner.stop();
      }
    });

    it('reads when an event it handles follows a position it did not hear of', async () => {
      const { runner, reads, notifier, handled } = await caughtUp('unheard');
      try {
        const [unheard] = await append(1);
        const ticked = await appendEvents(1);
        notifier.appended(ticked);
        await until(() => handled.length === 2);
        expect(handled).toEqual([unheard, ticked[0].position]);
        expect(reads).toHaveLength(2);
      } finally {
        await runner.stop();
      }
    });

    it('waits at a gap in the positions it heard of, and passes once the gap is heard of', async () => {
      const { runner, reads, notifier } = await caughtUp('gap');
      try {
        const [first, second] = await appendEvents(2, undefined, 'Tocked');
        const before = runner.currentPosition;
        notifier.appended([second]);
        await sleep(50);
        expect(runner.currentPosition).toBe(before);
        notifier.appended([first]);
        await until(() => runner.currentPosition === second.position);
        expect(reads).toHaveLength(1);
      } finally {
        await runner.stop();
      }
    });

    it('reads when another instance appended: it does not know what', async () => {
      const { runner, reads, notifier, handled } = await caughtUp('elsewhere');
      try {
        const [theirs] = await append(1);
        notifier.wokenFromElsewhere('append');
        await until(() => handled.length === 1);
        expect(handled).toEqual([theirs]);
        expect(reads).toHaveLength(2);
      } finally {
        await runner.stop();
      }
    });
  });

  describe('a projector and a workflow of one process', () => {
    /**
     * A saga that answers each Ticked with a Followed (appended a turn later, as the group commit
     * does) and a projector of both, caught up, sharing `activity`; the projector's batches.
     */
    async function hop(name: string, activity: WorkflowActivity): Promise<{ sent: StoredEvent[]; batches: number[][] }> {
      const notifier = new EventNotifier();
      const batches: number[][] = [];
      const sent: StoredEvent[] = [];
      const saga: BatchHandler = {
        async handle(events: StoredEvent[], _from: number, to: number) {
          await new Promise((resolve) => setImmediate(resolve));
          const followed = await appendEvents(events.length, undefined, 'Followed');
          sent.push(...followed);
          notifier.appended(followed);
          await checkpoints.save(`${name}-saga`, to);
          return true;
        },
        redeliver: async () => undefined,
      };
      const projector: BatchHandler = {
        async handle(events: StoredEvent[], _from: number, to: number) {
          batches.push(events.map((event) => event.position));
          await checkpoints.save(`${name}-projector`, to);
          return true;
        },
        redeliver: async () => undefined,
      };
      const head = await store.headPosition();
      const sagaOf = { ...subscriber(`${name}-saga`), kind: 'saga' as const };
      const projectorOf = { ...subscriber(`${name}-projector`), handlers: new Map([['Ticked', () => undefined], ['Followed', () => undefined]]) };
      const { store: noting, reads } = notingReads();
      const runners = [new SubscriptionRunner(sagaOf, saga, noting, checkpoints, notifier, noPoll, WHOLE, activity), new SubscriptionRunner(projectorOf, projector, noting, checkpoints, notifier, noPoll, WHOLE, activity)];
      for (const runner of runners) {
        await checkpoints.save(runner.name, head);
        await runner.start();
      }
      try {
        await until(() => reads.length === 2);
        const ticked = await appendEvents(1);
        sent.push(...ticked);
        notifier.appended(ticked);
        await until(() => batches.flat().length === 2);
      } finally {
        for (const runner of runners) await runner.stop();
      }
      return { sent: sent.sort((a, b) => a.position - b.position), batches };
    }

    it('lets the workflow go first when projectors wait: one projection covers its event and the one the hop appended', async () => {
      const { sent, batches } = await hop('waits', new WorkflowActivity(true, 60_000));
      expect(batches).toEqual([sent.map((event) => event.position)]);
    });

    it('projects each append as it comes when projectors do not wait', async () => {
      const { sent, batches } = await hop('goes', new WorkflowActivity(false));
      expect(batches).toEqual(sent.map((event) => [event.position]));
    });
  });
});
