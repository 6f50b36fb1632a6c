import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { CommandGateway } from '@nest-es/core';
import { EVENT_STORE_ADAPTER, type EventStore } from '@nest-es/core/internal';
import type { StoreOptions } from '@nest-es/typeorm';
import { bootBenchApp } from './bench-app.js';
import { Deposit } from './bench-aggregates.js';
import { warmAccounts } from './command.bench.js';
import { RAW_INSERT_COLUMNS, rawEventRow } from './raw-driver.js';
import { round } from './stats.js';

/** One step of a lone PostgreSQL command: one caller, one operation after another. */
export interface LoneCommandStep {
  step: string;
  microsPerOp: number;
  perSec: number;
  /** The bench process's CPU (user and system, all its threads) per operation: what the host's speed changes most. */
  cpuMicrosPerOp: number;
}

const ACCOUNTS = 200;
const WARM_UP = 300;
const BLOCK = 100;
const RAW_INSERT = `INSERT INTO es_events (${RAW_INSERT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`;
const LOCKED_INSERT = `DO $$ BEGIN PERFORM pg_advisory_xact_lock(hashtextextended('es_events:' || current_schema(), 0));
  INSERT INTO es_events (${RAW_INSERT_COLUMNS}) VALUES ('bench-locked', '%ID%', %SEQ%, 'Deposited', 1, '{"amount":1}', null, now(), '%EVENT%', null, 'c', null, null); END $$`;

/**
 * Where the time of a lone command goes on PostgreSQL (`--only lone-command`): the round trip alone,
 * the raw one-row insert into the store's own table (its indexes), the same with the append lock in
 * one round trip, the store's append, and the whole command through the gateway. Each step's
 * difference to the one before is what that layer costs. The steps take turns in blocks of BLOCK
 * operations, so that the host's drift (its CPU and its disk change speed from one second to the next)
 * falls on all of them alike, while the work a step leaves behind (a collection, a timer) stays mostly
 * with it.
 */
export async function measureLoneCommand(store: StoreOptions, ops: number): Promise<LoneCommandStep[]> {
  if (!('type' in store) || store.type !== 'postgres') throw new Error('the lone command is measured on PostgreSQL');
  const app = await bootBenchApp(store);
  const client = new pg.Client({ connectionString: store.url, options: `-c search_path=${store.schema}` });
  await client.connect();
  try {
    await warmAccounts(app, ACCOUNTS);
    const appender = app.get<EventStore>(EVENT_STORE_ADAPTER);
    const gateway = app.get(CommandGateway);
    const sequences = new Map<string, number>();
    const next = (id: string) => {
      const sequence = (sequences.get(id) ?? 0) + 1;
      sequences.set(id, sequence);
      return sequence;
    };
    const steps: Array<[string, (i: number) => Promise<unknown>]> = [
      ['round trip (SELECT 1)', () => client.query('SELECT 1')],
      ['raw one-row INSERT into es_events, autocommit', (i) => client.query(RAW_INSERT, rawEventRow(`raw-${i % ACCOUNTS}`, next(`raw-${i % ACCOUNTS}`), new Date()))],
      [
        'the same with the append lock, one round trip',
        (i) => client.query(LOCKED_INSERT.replace('%ID%', `l-${i % ACCOUNTS}`).replace('%SEQ%', String(next(`l-${i % ACCOUNTS}`))).replace('%EVENT%', randomUUID())),
      ],
      [
        "the store's append, one event",
        (i) => {
          const id = `a-${i % ACCOUNTS}`;
          const sequence = next(id);
          const metadata = { eventId: randomUUID(), commandId: null, correlationId: randomUUID(), causationId: null };
          return appender.append({ stream: { aggregateType: 'bench-append', aggregateId: id }, expectedSequence: sequence - 1, events: [{ type: 'Deposited', payload: { amount: 1 }, metadata }] });
        },
      ],
      ['a Deposit through the gateway, cached aggregate', (i) => gateway.send(new Deposit(`account-${i % ACCOUNTS}`, 1))],
    ];
    for (const [, run] of steps) for (let i = 0; i < WARM_UP; i++) await run(i);
    const micros = steps.map(() => 0);
    const cpuMicros = steps.map(() => 0);
    for (let first = WARM_UP; first < WARM_UP + ops; first += BLOCK) {
      for (const [index, [, run]] of steps.entries()) {
        const cpu = process.cpuUsage();
        const started = performance.now();
        for (let i = first; i < Math.min(first + BLOCK, WARM_UP + ops); i++) await run(i);
        micros[index] += (performance.now() - started) * 1000;
        const { user, system } = process.cpuUsage(cpu);
        cpuMicros[index] += user + system;
      }
    }
    return steps.map(([step], index): LoneCommandStep => {
      const perOp = micros[index] / ops;
      return { step, microsPerOp: round(perOp), perSec: round(1_000_000 / perOp), cpuMicrosPerOp: round(cpuMicros[index] / ops) };
    });
  } finally {
    await client.end();
    await app.close();
  }
}
