import { CommandGateway } from '@nest-es/core';
import { SNAPSHOT_STORE } from '@nest-es/core/internal';
import { type SnapshotStore } from '@nest-es/core/adapter';
import { LEDGER, RecordEntries, SNAPSHOT_EVERY } from './bench-aggregates.js';
import { bootBenchApp } from './bench-app.js';
import type { BenchDatabase } from './databases.js';
import { collectGarbage } from './gc.js';
import type { RawDriver } from './raw-driver.js';
import { distribution, timeEach, type Distribution } from './stats.js';
import { AggregateLoader, EventSourcingRegistry } from '@nest-es/core/internal';

export interface RebuildFigures {
  events: number;
  snapshotEvery: number;
  /** Newest snapshot at or below a sequence drawn uniformly from the last SNAPSHOT_EVERY, plus the events after it. */
  snapshot: Distribution;
  /** Every event replayed (the stream has no snapshot). */
  full: Distribution;
  /** The raw driver reading and JSON-parsing the same rows. */
  raw: Distribution;
}

export const REBUILD_EVENTS = 100_000;
const WITH_SNAPSHOTS = { aggregateType: LEDGER, aggregateId: 'with-snapshots' };
const WITHOUT_SNAPSHOTS = { aggregateType: LEDGER, aggregateId: 'without-snapshots' };

/** Rebuild times through the framework's AggregateLoader, with the aggregate cache off so every load reads the store. */
export async function measureRebuild(db: BenchDatabase, raw: RawDriver, samples: { snapshot: number; full: number }): Promise<RebuildFigures> {
  const app = await bootBenchApp(db.store, { aggregateCacheSize: 0 });
  try {
    await seed(app.get(CommandGateway));
    // One stream keeps no snapshot, as under the 'none' policy: its rebuild replays every event.
    await app.get<SnapshotStore>(SNAPSHOT_STORE).deleteStream(WITHOUT_SNAPSHOTS);
    const loader = app.get(AggregateLoader);
    const ledger = app.get(EventSourcingRegistry).aggregate(LEDGER)!;
    const check = await loader.load(ledger, WITHOUT_SNAPSHOTS);
    if ((check.state as { entries: number }).entries !== REBUILD_EVENTS) throw new Error(`the rebuilt ledger has ${JSON.stringify(check.state)}`);

    // Every tail length from 0 to SNAPSHOT_EVERY - 1 events is equally likely, as between two snapshots of a live aggregate.
    const snapshot = await timeEach(samples.snapshot, () =>
      loader.loadAt(ledger, WITH_SNAPSHOTS, REBUILD_EVENTS - Math.floor(Math.random() * SNAPSHOT_EVERY)),
    );
    // Alternated so both see the same machine; a collection first, so neither pays for the other's garbage.
    const full: number[] = [];
    const rawTimes: number[] = [];
    for (let i = 0; i < samples.full; i++) {
      collectGarbage();
      full.push(...(await timeEach(1, () => loader.load(ledger, WITHOUT_SNAPSHOTS))));
      collectGarbage();
      rawTimes.push(...(await timeEach(1, () => raw.readStream(LEDGER, WITHOUT_SNAPSHOTS.aggregateId))));
    }
    return { events: REBUILD_EVENTS, snapshotEvery: SNAPSHOT_EVERY, snapshot: distribution(snapshot), full: distribution(full), raw: distribution(rawTimes) };
  } finally {
    await app.close();
  }
}

/** Both ledgers through the gateway, 1,000 events a command: the snapshot policy writes snapshots as it would live. */
async function seed(gateway: CommandGateway): Promise<void> {
  const perCommand = 1000;
  await Promise.all(
    [WITH_SNAPSHOTS, WITHOUT_SNAPSHOTS].map(async ({ aggregateId }) => {
      for (let written = 0; written < REBUILD_EVENTS; written += perCommand) await gateway.send(new RecordEntries(aggregateId, perCommand));
    }),
  );
}
