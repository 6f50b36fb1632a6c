import { EventSourcingMigration } from '../event-sourcing-migration.js';

/** Events a projector's checkpoint moved past without projecting them yet (a failing event, and its aggregate's later ones). */
export class EventSourcingHeldEvents1764547200006 extends EventSourcingMigration {
  readonly version = 6;
  readonly name = 'EventSourcingHeldEvents1764547200006';
  readonly description = 'held events';
  protected readonly upStatements = {
    sqlite: [
      `CREATE TABLE es_held_events (
        subscriber TEXT NOT NULL,
        position INTEGER NOT NULL,
        aggregate_type TEXT NOT NULL,
        aggregate_id TEXT NOT NULL,
        PRIMARY KEY (subscriber, position)
      ) WITHOUT ROWID`,
    ],
    postgres: [
      `CREATE TABLE es_held_events (
        subscriber text NOT NULL,
        position bigint NOT NULL,
        aggregate_type text NOT NULL,
        aggregate_id text NOT NULL,
        PRIMARY KEY (subscriber, position)
      )`,
    ],
  };
  protected readonly downStatements = {
    sqlite: ['DROP TABLE es_held_events'],
    postgres: ['DROP TABLE es_held_events'],
  };
}
