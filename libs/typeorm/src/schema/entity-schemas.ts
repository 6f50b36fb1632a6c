import { EntitySchema, type EntitySchemaColumnOptions } from 'typeorm';
import type { Dialect } from '../sql-client.js';

/**
 * The framework's tables as TypeORM entity schemas, for an app that reads them with TypeORM
 * (`dataSource.getRepository('es_events')`) or lists them in its DataSource so that
 * `migration:generate` sees them as they are (it then generates nothing for them). The schema itself
 * comes from `eventSourcingMigrations`; the stores write these tables with their own SQL.
 * Column types differ by database (times are epoch milliseconds on SQLite), hence one set per dialect.
 */
export function eventSourcingEntitySchemas(dialect: Dialect): EntitySchema[] {
  const t = dialect === 'sqlite' ? sqliteTypes : postgresTypes;
  const text = (extra: Partial<EntitySchemaColumnOptions> = {}): EntitySchemaColumnOptions => ({ type: t.text, ...extra });
  const int = (extra: Partial<EntitySchemaColumnOptions> = {}): EntitySchemaColumnOptions => ({ type: t.integer, ...extra });
  const time = (): EntitySchemaColumnOptions => ({ type: t.time });
  return [
    new EntitySchema({
      name: 'es_events',
      columns: {
        position: { ...t.position, primary: true },
        aggregate_type: text(),
        aggregate_id: text(),
        aggregate_hash: int({ nullable: true }),
        sequence: int(),
        event_type: text(),
        schema_version: int({ default: 1 }),
        payload: { type: t.json },
        metadata: { type: t.json, nullable: true },
        occurred_at: time(),
        event_id: text(),
        command_id: text({ nullable: true }),
        correlation_id: text(),
        causation_id: text({ nullable: true }),
        external_id: text({ nullable: true }),
      },
      // SQLite's unique constraints are unnamed: TypeORM names them as its naming strategy does.
      uniques: [
        { name: t.named('es_events_stream_sequence_key'), columns: ['aggregate_type', 'aggregate_id', 'sequence'] },
        { name: t.named('es_events_event_id_key'), columns: ['event_id'] },
      ],
      indices: [
        {
          name: 'es_events_external_id_key',
          columns: ['aggregate_type', 'aggregate_id', 'external_id'],
          unique: true,
          where: 'external_id IS NOT NULL',
        },
        { name: 'es_events_correlation_id_idx', columns: ['correlation_id'] },
        { name: 'es_events_causation_id_idx', columns: ['causation_id'] },
      ],
    }),
    new EntitySchema({
      name: 'es_commands',
      withoutRowid: dialect === 'sqlite',
      columns: {
        aggregate_type: text({ primary: true }),
        aggregate_id: text({ primary: true }),
        command_id: text({ primary: true }),
        sequence_before: int(),
        sequence_after: int(),
        created_at: time(),
        fingerprint: text({ nullable: true }),
      },
    }),
    new EntitySchema({
      name: 'es_snapshots',
      columns: {
        aggregate_type: text({ primary: true }),
        aggregate_id: text({ primary: true }),
        sequence: int({ primary: true }),
        state_version: int(),
        state: text(),
        taken_at: time(),
      },
    }),
    new EntitySchema({
      name: 'es_checkpoints',
      withoutRowid: dialect === 'sqlite',
      columns: {
        subscriber: text({ primary: true }),
        position: { type: t.position.type },
        updated_at: time(),
      },
    }),
    new EntitySchema({
      name: 'es_held_events',
      withoutRowid: dialect === 'sqlite',
      columns: {
        subscriber: text({ primary: true }),
        position: { type: t.position.type, primary: true },
        aggregate_type: text(),
        aggregate_id: text(),
      },
    }),
    new EntitySchema({
      name: 'es_dead_letters',
      withoutRowid: dialect === 'sqlite',
      columns: {
        id: text({ primary: true }),
        kind: text(),
        subscriber: text({ nullable: true }),
        aggregate_type: text(),
        aggregate_id: text(),
        message_type: text(),
        payload: text(),
        context: text(),
        reason: text(),
        attempts: int(),
        status: text(),
        created_at: time(),
        updated_at: time(),
      },
      indices: [{ name: 'es_dead_letters_status_idx', columns: ['status', 'created_at'] }],
    }),
    new EntitySchema({
      name: 'es_timers',
      withoutRowid: dialect === 'sqlite',
      columns: {
        id: text({ primary: true }),
        owner: text(),
        correlation_id: text(),
        name: text(),
        due_at: time(),
        payload: text(),
        status: text(),
        created_at: time(),
      },
      indices: [
        { name: 'es_timers_due_idx', columns: ['status', 'due_at'] },
        { name: 'es_timers_owner_idx', columns: ['owner', 'correlation_id', 'name'] },
      ],
    }),
  ];
}

const sqliteTypes = {
  text: 'text',
  integer: 'integer',
  json: 'text',
  time: 'integer',
  // AUTOINCREMENT, which TypeORM recognizes only after a quoted column name, and SQLite's rowid
  // primary key, nullable by declaration: declared as TypeORM reads the table back.
  position: { type: 'integer', nullable: true },
  named: (): undefined => undefined,
} as const;
const postgresTypes = {
  text: 'text',
  integer: 'integer',
  json: 'json',
  time: 'timestamptz',
  // An identity column, which entity schemas cannot declare; TypeORM's comparison only asks whether
  // the column is generated.
  position: { type: 'bigint', generated: 'increment' },
  named: (name: string): string => name,
} as const;
