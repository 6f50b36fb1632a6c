import type { EventSourcingStores } from './event-sourcing-stores.js';
import { CHECKPOINT_STORE } from '../store/checkpoint-store.js';
import { InMemoryCheckpointStore } from '../store/memory/in-memory-checkpoint-store.js';
import { InMemoryDeadLetterStore } from '../store/memory/in-memory-dead-letter-store.js';
import { InMemoryEventStore } from '../store/memory/in-memory-event-store.js';
import { InMemoryProjectionTransactions } from '../store/memory/in-memory-projection-transactions.js';
import { InMemorySnapshotStore } from '../store/memory/in-memory-snapshot-store.js';
import { InMemoryTimerStore } from '../store/memory/in-memory-timer-store.js';

/** Every store in this process's memory, fresh for each module instance: `EventSourcingModule.forRoot({stores: inMemoryStores()})`. */
export function inMemoryStores(): EventSourcingStores {
  return {
    event: { useFactory: () => new InMemoryEventStore() },
    snapshot: { useFactory: () => new InMemorySnapshotStore() },
    checkpoint: { useFactory: () => new InMemoryCheckpointStore() },
    deadLetter: { useFactory: () => new InMemoryDeadLetterStore() },
    timer: { useFactory: () => new InMemoryTimerStore() },
    projectionTransactions: { useFactory: (checkpoints: InMemoryCheckpointStore) => new InMemoryProjectionTransactions(checkpoints), inject: [CHECKPOINT_STORE] },
  };
}
