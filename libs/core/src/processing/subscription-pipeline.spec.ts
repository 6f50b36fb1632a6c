// A pipeline whose checkpoint another owner moved (a partition handed over, a rebuild) must not
// commit over it: `handle` answers false, so its runner reloads instead of going on from a stale
// position. Real (in-memory) store, checkpoints, dead letters and lanes.
import { randomUUID } from 'node:crypto';
import type { StoredEvent } from '../model/event-envelope.js';
import { AggregateDispatcher } from '../scheduling/aggregate-dispatcher.js';
import { DefaultAggregateSchedulerSupplier } from '../scheduling/default-aggregate-scheduler-supplier.js';
import { InMemoryCheckpointStore } from '../store/memory/in-memory-checkpoint-store.js';
import { InMemoryDeadLetterStore } from '../store/memory/in-memory-dead-letter-store.js';
import { InMemoryEventStore } from '../store/memory/in-memory-event-store.js';
import { EventDeadLetters } from './event-dead-letters.js';
import { DEFAULT_RETRY_POLICY } from './retry-policy.js';
import { aggregateKey, type Reactor } from './reactor.js';
import { SubscriptionPipeline } from './subscription-pipeline.js';

const CHECKPOINT = 'pipeline-spec';

async function setUp(inTransaction: boolean) {
  const store = new InMemoryEventStore();
  const checkpoints = new InMemoryCheckpointStore();
  const reacted: number[] = [];
  const reactor: Reactor = {
    inTransaction,
    keyOf: aggregateKey,
    keyOfHeld: () => undefined,
    react: async (event) => void reacted.push(event.position),
  };
  const pipeline = new SubscriptionPipeline({
    checkpoint: CHECKPOINT,
    reactor,
    checkpoints,
    store,
    deadLetters: new EventDeadLetters(CHECKPOINT, new InMemoryDeadLetterStore()),
    lanes: new AggregateDispatcher('spec', new DefaultAggregateSchedulerSupplier('spec', 2), 16),
    laneName: CHECKPOINT,
    policy: DEFAULT_RETRY_POLICY,
  });
  const { events } = await store.append({
    stream: { aggregateType: 'spec', aggregateId: randomUUID() },
    expectedSequence: 0,
    events: [1, 2, 3].map(() => ({ type: 'Ticked', payload: {}, metadata: { eventId: randomUUID(), commandId: null, correlationId: 'spec', causationId: null } })),
  });
  return { checkpoints, pipeline, reacted, events: events as StoredEvent[] };
}

describe.each([
  ['acts before its commit (a saga, a process manager)', false],
  ['writes in its commit (a projector)', true],
])('SubscriptionPipeline, with a reactor that %s', (_kind, inTransaction) => {
  it('moves the checkpoint past the batch it handled', async () => {
    const { checkpoints, pipeline, reacted, events } = await setUp(inTransaction);
    expect(await pipeline.handle(events, 0, events[2].position)).toBe(true);
    expect(reacted).toEqual(events.map((event) => event.position));
    expect(await checkpoints.load(CHECKPOINT)).toBe(events[2].position);
  });

  it('answers false and leaves the checkpoint alone when another owner moved it first', async () => {
    const { checkpoints, pipeline, events } = await setUp(inTransaction);
    await checkpoints.moveCheckpoint(CHECKPOINT, 0, events[0].position);
    expect(await pipeline.handle(events, 0, events[2].position)).toBe(false);
    expect(await checkpoints.load(CHECKPOINT)).toBe(events[0].position);
  });
});
