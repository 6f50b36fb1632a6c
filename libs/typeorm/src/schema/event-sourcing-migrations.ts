import type { EventSourcingMigration } from './event-sourcing-migration.js';
import { EventSourcingAggregateHash1764547200008 } from './migrations/aggregate-hash.migration.js';
import { EventSourcingAppendFunction1764547200003 } from './migrations/append-function.migration.js';
import { EventSourcingAppendOneFunction1764547200009 } from './migrations/append-one-function.migration.js';
import { EventSourcingAppendStream1764547200010 } from './migrations/append-stream.migration.js';
import { EventSourcingAppendGenericPlans1764547200007 } from './migrations/append-generic-plans.migration.js';
import { EventSourcingAppendWakeUp1764547200005 } from './migrations/append-wake-up.migration.js';
import { EventSourcingCommandFingerprints1764547200004 } from './migrations/command-fingerprints.migration.js';
import { EventSourcingCheckpointsDeadLettersTimers1764547200002 } from './migrations/checkpoints-dead-letters-timers.migration.js';
import { EventSourcingEventsCommandsSnapshots1764547200001 } from './migrations/events-commands-snapshots.migration.js';
import { EventSourcingHeldEvents1764547200006 } from './migrations/held-events.migration.js';

/**
 * The framework's schema, oldest step first, as TypeORM migration classes: spread into a DataSource's
 * `migrations` to run them with the TypeORM CLI next to the app's own. Append new steps at the end.
 */
export const eventSourcingMigrations: (new () => EventSourcingMigration)[] = [
  EventSourcingEventsCommandsSnapshots1764547200001,
  EventSourcingCheckpointsDeadLettersTimers1764547200002,
  EventSourcingAppendFunction1764547200003,
  EventSourcingCommandFingerprints1764547200004,
  EventSourcingAppendWakeUp1764547200005,
  EventSourcingHeldEvents1764547200006,
  EventSourcingAppendGenericPlans1764547200007,
  EventSourcingAggregateHash1764547200008,
  EventSourcingAppendOneFunction1764547200009,
  EventSourcingAppendStream1764547200010,
];
