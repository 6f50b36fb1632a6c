import { randomUUID } from 'node:crypto';

/** The baselines: the database driver alone, with none of the framework around it. */
export interface RawDriver {
  /** Reads one aggregate's event rows (the store's columns) and JSON-parses them; the number of rows. */
  readStream(aggregateType: string, aggregateId: string): Promise<number>;
  /**
   * Commits one event-like row per transaction from `callers` concurrent callers for `durationMs` over
   * `connections` connections (where the driver has a pool); commits per second.
   */
  commitsPerSecond(callers: number, durationMs: number, connections: number): Promise<number>;
  close(): Promise<void>;
}

/** The event table's columns, in the order the raw drivers read and write them. */
export const EVENT_COLUMNS =
  'position, aggregate_type, aggregate_id, sequence, event_type, schema_version, payload, metadata, occurred_at, ' +
  'event_id, command_id, correlation_id, causation_id, external_id';

export const RAW_INSERT_COLUMNS =
  'aggregate_type, aggregate_id, sequence, event_type, schema_version, payload, metadata, occurred_at, ' +
  'event_id, command_id, correlation_id, causation_id, external_id';

/** A row like the one a one-event command stores (the store also indexes correlation and causation ids). */
export function rawEventRow(aggregateId: string, sequence: number, occurredAt: number | Date): unknown[] {
  const commandId = randomUUID();
  return ['bench-raw', aggregateId, sequence, 'Deposited', 1, '{"amount":1}', null, occurredAt, randomUUID(), commandId, commandId, commandId, null];
}

/** Runs `callers` loops of `commit`, each on its own aggregate, until the time is up; commits per second. */
export async function commitLoops(callers: number, durationMs: number, commit: (aggregateId: string, sequence: number) => Promise<void>): Promise<number> {
  let commits = 0;
  const run = randomUUID();
  const started = performance.now();
  const end = started + durationMs;
  await Promise.all(
    Array.from({ length: callers }, async (_, caller) => {
      for (let sequence = 1; performance.now() < end; sequence++) {
        await commit(`${run}-${caller}`, sequence);
        commits++;
      }
    }),
  );
  return commits / ((performance.now() - started) / 1000);
}
