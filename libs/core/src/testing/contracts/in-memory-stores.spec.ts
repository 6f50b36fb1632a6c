// The in-memory adapter held to the same store contracts as the TypeORM adapter.
import {
  describeCheckpointStoreContract,
  describeDeadLetterStoreContract,
  describeEventStoreContract,
  describePartitionLeasesContract,
  describeCheckpointCommitContract,
  describeSnapshotStoreContract,
  describeTimerStoreContract,
} from './index.js';
import { InProcessPartitionLeases } from '../../store/partition-leases.js';
import { InMemoryCheckpointStore } from '../../store/memory/in-memory-checkpoint-store.js';
import { InMemoryDeadLetterStore } from '../../store/memory/in-memory-dead-letter-store.js';
import { InMemoryEventStore } from '../../store/memory/in-memory-event-store.js';
import { InMemorySnapshotStore } from '../../store/memory/in-memory-snapshot-store.js';
import { InMemoryTimerStore } from '../../store/memory/in-memory-timer-store.js';

const closed = async () => undefined;

describeEventStoreContract('in memory', async () => ({ store: new InMemoryEventStore(), close: closed }));
describeSnapshotStoreContract('in memory', async () => ({ store: new InMemorySnapshotStore(), close: closed }));
describeTimerStoreContract('in memory', async () => ({ store: new InMemoryTimerStore(), close: closed }));
describeDeadLetterStoreContract('in memory', async () => ({ store: new InMemoryDeadLetterStore(), close: closed }));
describeCheckpointStoreContract('in memory', async () => ({ store: new InMemoryCheckpointStore(), close: closed }));
describeCheckpointCommitContract('in memory', async () => ({ store: new InMemoryCheckpointStore(), close: closed }));
// The leases of a store one process owns: it is the only member, and every unit is its own.
describePartitionLeasesContract('in process', async () => ({ store: new InProcessPartitionLeases(), close: closed }));
