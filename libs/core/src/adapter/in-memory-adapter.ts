import type { AdapterPorts, EventSourcingAdapter } from './event-sourcing-adapter.js';
import { InMemoryCheckpointStore } from '../store/memory/in-memory-checkpoint-store.js';
import { InMemoryDeadLetterStore } from '../store/memory/in-memory-dead-letter-store.js';
import { InMemoryEventStore } from '../store/memory/in-memory-event-store.js';
import { InMemorySnapshotStore } from '../store/memory/in-memory-snapshot-store.js';
import { InMemoryTimerStore } from '../store/memory/in-memory-timer-store.js';

/**
 * Every store in this process's memory, fresh each time the module opens it (tests, prototypes):
 * `EventSourcingModule.forRoot({ adapter: inMemory() })`. Projectors receive `undefined` as their transaction.
 */
export function inMemory(): EventSourcingAdapter<undefined> {
  return {
    name: 'in-memory',
    async open(): Promise<AdapterPorts<undefined>> {
      const checkpoints = new InMemoryCheckpointStore();
      return {
        events: new InMemoryEventStore(),
        snapshots: new InMemorySnapshotStore(),
        checkpoints,
        deadLetters: new InMemoryDeadLetterStore(),
        timers: new InMemoryTimerStore(),
      };
    },
    async close(): Promise<void> {},
  };
}
