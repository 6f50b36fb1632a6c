import { randomUUID } from 'node:crypto';
import { TypeOrmEventStore, type StoreOptions } from '@nest-es/typeorm';
import { openDataSource } from '@nest-es/typeorm';

export interface AppendProcessLoad {
  store: StoreOptions;
  callers: number;
  durationMs: number;
}

/*
 * One appending process of the append-lock figure (forked by append-lock.bench.ts, the load as its
 * argument): opens its own store, says 'ready', and on 'go' runs `callers` loops of one-event appends,
 * each to a stream of its own, then reports how many it committed and in how long.
 */
const { store, callers, durationMs } = JSON.parse(process.argv[2]) as AppendProcessLoad;
const dataSource = await openDataSource(store);
const events = await TypeOrmEventStore.create(dataSource);
process.send!('ready');
await new Promise((resolve) => process.once('message', resolve));
let appends = 0;
const started = performance.now();
const end = started + durationMs;
await Promise.all(
  Array.from({ length: callers }, async () => {
    const stream = { aggregateType: 'bench-lock', aggregateId: randomUUID() };
    for (let sequence = 0; performance.now() < end; sequence++) {
      const eventId = randomUUID();
      await events.append({
        stream,
        expectedSequence: sequence,
        events: [{ type: 'Deposited', payload: { amount: 1 }, metadata: { eventId, commandId: null, correlationId: eventId, causationId: null } }],
      });
      appends++;
    }
  }),
);
process.send!({ appends, seconds: (performance.now() - started) / 1000 });
await dataSource.destroy();
