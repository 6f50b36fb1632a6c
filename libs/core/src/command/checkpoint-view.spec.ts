// A sync wait's view of the checkpoints: one read of the store, then this process's moves in memory,
// and a read again whenever memory cannot tell. Real (in-memory) checkpoints, counted reads.
import { EventNotifier } from '../runtime/event-notifier.js';
import { InMemoryCheckpointStore } from '../store/memory/in-memory-checkpoint-store.js';
import { CheckpointView, type Need } from './checkpoint-view.js';

const VIEW = 'shop-view';
const SAGA = 'stock-saga';

/**
 * The checkpoints, with every `loadAll` counted. The reads are real, and answer on the next turn of
 * the event loop with what the store held when they were asked, as a database's read does.
 */
function countedStore(): { checkpoints: InMemoryCheckpointStore; reads: () => number } {
  const checkpoints = new InMemoryCheckpointStore();
  let reads = 0;
  const loadAll = checkpoints.loadAll.bind(checkpoints);
  checkpoints.loadAll = async () => {
    reads++;
    const positions = await loadAll();
    await new Promise((resolve) => setImmediate(resolve));
    return positions;
  };
  return { checkpoints, reads: () => reads };
}

/** Moves a checkpoint to `to` in the store, holding `hold` on the way, as a subscriber's commit does. */
async function commit(checkpoints: InMemoryCheckpointStore, name: string, to: number, hold: number[] = []): Promise<void> {
  await checkpoints.run(async (tx) => {
    await checkpoints.advanceCheckpoint(tx, name, await checkpoints.load(name), to);
    for (const position of hold) await checkpoints.holdEvent(tx, { subscriber: name, position, aggregateType: 'order', aggregateId: 'o1' });
  });
}

function needs(entries: Array<[string, number[]]>): Map<string, Need> {
  return new Map(entries.map(([name, positions]) => [name, { kind: 'projector', positions }]));
}

describe('CheckpointView', () => {
  let notifier: EventNotifier;
  let view: CheckpointView;
  let store: ReturnType<typeof countedStore>;

  beforeEach(() => {
    notifier = new EventNotifier();
    store = countedStore();
    view = new CheckpointView(notifier, store.checkpoints);
  });

  afterEach(() => view.close());

  it('reads the store once, then follows this process\'s moves without reading again', async () => {
    const needed = needs([[VIEW, [3]], [SAGA, [3]]]);
    expect(await view.pending(needed)).toEqual([{ subscriber: VIEW, position: 3 }, { subscriber: SAGA, position: 3 }]);
    await commit(store.checkpoints, VIEW, 3);
    notifier.checkpointed({ checkpoint: VIEW, position: 3, holding: false });
    expect(await view.pending(needed)).toEqual([{ subscriber: SAGA, position: 3 }]);
    await commit(store.checkpoints, SAGA, 4);
    notifier.checkpointed({ checkpoint: SAGA, position: 4, holding: false });
    expect(await view.pending(needed)).toEqual([]);
    expect(store.reads()).toBe(1);
  });

  it('reads the store again after a move of a subscriber that holds events, and waits for the held one', async () => {
    const needed = needs([[VIEW, [2, 3]]]);
    await view.pending(needed);
    await commit(store.checkpoints, VIEW, 3, [2]);
    notifier.checkpointed({ checkpoint: VIEW, position: 3, holding: true });
    expect(await view.pending(needed)).toEqual([{ subscriber: VIEW, position: 2 }]);
    expect(store.reads()).toBe(2);
    // Released: the retry's announcement says nothing is held any more.
    await store.checkpoints.run((tx) => store.checkpoints.releaseEvent(tx, VIEW, 2));
    notifier.checkpointed({ checkpoint: VIEW, position: 3, holding: false });
    expect(await view.pending(needed)).toEqual([]);
    expect(store.reads()).toBe(2);
  });

  it('reads the store again after another instance moved a checkpoint, or when told to (a poll)', async () => {
    const needed = needs([[VIEW, [3]]]);
    await view.pending(needed);
    await commit(store.checkpoints, VIEW, 3);
    notifier.wokenFromElsewhere('checkpoint');
    expect(await view.pending(needed)).toEqual([]);
    view.invalidate();
    await view.pending(needed);
    expect(store.reads()).toBe(3);
  });

  it('keeps a move announced while it reads, over what the read returns', async () => {
    const needed = needs([[VIEW, [3]]]);
    const reading = view.pending(needed);
    // The read has started; the subscriber commits and announces before it returns.
    await commit(store.checkpoints, VIEW, 3);
    notifier.checkpointed({ checkpoint: VIEW, position: 3, holding: false });
    await reading;
    expect(await view.pending(needed)).toEqual([]);
    expect(store.reads()).toBe(1);
  });

  it('opened before the append, reads nothing until a move it cannot follow; then it has read', async () => {
    const opened = new CheckpointView(notifier, store.checkpoints, true);
    const needed = needs([[VIEW, [3]], [SAGA, [3]]]);
    expect(await opened.pending(needed)).toEqual([{ subscriber: VIEW, position: 3 }, { subscriber: SAGA, position: 3 }]);
    await commit(store.checkpoints, VIEW, 3);
    notifier.checkpointed({ checkpoint: VIEW, position: 3, holding: false });
    expect(await opened.pending(needed)).toEqual([{ subscriber: SAGA, position: 3 }]);
    expect(store.reads()).toBe(0);
    expect(opened.onlyOwnMoves).toBe(true);
    await commit(store.checkpoints, SAGA, 3);
    notifier.wokenFromElsewhere('checkpoint');
    expect(await opened.pending(needed)).toEqual([]);
    expect(store.reads()).toBe(1);
    expect(opened.onlyOwnMoves).toBe(false);
    opened.close();
  });

  it('stops following moves once closed', async () => {
    const needed = needs([[VIEW, [3]]]);
    await view.pending(needed);
    view.close();
    notifier.checkpointed({ checkpoint: VIEW, position: 3, holding: false });
    expect(await view.pending(needed)).toEqual([{ subscriber: VIEW, position: 3 }]);
  });

  it('does not see a checkpoint past an event without its hold when a commit lands between its two reads', async () => {
    // On PostgreSQL the two reads may reach the server on two connections, the checkpoints' later.
    const checkpoints = new InMemoryCheckpointStore();
    const loadAll = checkpoints.loadAll.bind(checkpoints);
    checkpoints.loadAll = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return loadAll();
    };
    const reading = new CheckpointView(notifier, checkpoints);
    const pending = reading.pending(needs([[VIEW, [2]]]));
    // The projector fails on 2: it holds it and moves past it, in one commit, while the view reads.
    await commit(checkpoints, VIEW, 3, [2]);
    expect(await pending).toEqual([{ subscriber: VIEW, position: 2 }]);
    reading.close();
  });
});
