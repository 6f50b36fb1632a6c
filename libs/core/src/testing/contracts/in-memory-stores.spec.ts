// The in-memory adapter held to the same store contracts as the TypeORM adapter.
import { describeDeadLetterStoreContract, describeEventStoreContract, describeSnapshotStoreContract, describeTimerStoreContract } from './index.js';
import { InMemoryDeadLetterStore } from '../../store/memory/in-memory-dead-letter-store.js';
import { InMemoryEventStore } from '../../store/memory/in-memory-event-store.js';
import { InMemorySnapshotStore } from '../../store/memory/in-memory-snapshot-store.js';
import { InMemoryTimerStore } from '../../store/memory/in-memory-timer-store.js';

const closed = async () => undefined;

describeEventStoreContract('in memory', async () => ({ store: new InMemoryEventStore(), close: closed }));
describeSnapshotStoreContract('in memory', async () => ({ store: new InMemorySnapshotStore(), close: closed }));
describeTimerStoreContract('in memory', async () => ({ store: new InMemoryTimerStore(), close: closed }));
describeDeadLetterStoreContract('in memory', async () => ({ store: new InMemoryDeadLetterStore(), close: closed }));
