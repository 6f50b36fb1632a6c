import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { type AppProcess, startAppProcess, stopAppProcess } from './support/app-process.js';
import { createTestStore, TEST_DATABASE_URL, type TestStore } from './support/test-store.js';

/*
 * Three processes of one app (test/support/ticket-child.ts) on one PostgreSQL schema and one NATS
 * JetStream stream, scale-out and the publisher on in each; clients send commands to all three
 * while one is killed (SIGKILL) and started again.
 */
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const PARTITIONS = 6;
const REBALANCE_MS = 250;
/** The stated bound (docs/scaling.md): a dead instance's partitions run elsewhere within two rebalance intervals. */
const REOWN_BOUND_MS = 2 * REBALANCE_MS;
/** Room for a loaded machine (2 cores, other suites): the bound is asserted with this on top. */
const MARGIN_MS = 4_000;
/** The projector and the process manager, each in PARTITIONS partitions. */
const UNITS = 2 * PARTITIONS;
const CLIENTS = 6;
const PAUSE_MS = 30;

interface Command {
  commandId: string;
  ticketId: string;
  type: 'OpenTicket' | 'CommentTicket';
  body: object;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The last lines each instance wrote (its warnings and errors), for a failure to show what they saw. */
function outputsOf(instances: AppProcess[]): string {
  return instances.map((instance, i) => `instance ${i} wrote:\n${instance.output.join('').split('\n').slice(-20).join('\n')}`).join('\n');
}

async function until<T>(read: () => Promise<T>, accept: (value: T) => boolean, what: string, timeoutMs = 30_000, instances: AppProcess[] = []): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${timeoutMs} ms; last seen ${JSON.stringify(value)}\n${outputsOf(instances)}`);
    await sleep(25);
  }
}

/** The partitions an instance runs now ([] when it does not answer: killed, or not up yet). */
async function partitionsOf(instance: AppProcess): Promise<string[]> {
  try {
    const res = await fetch(`${instance.url}/scale-out/partitions`, { signal: AbortSignal.timeout(2_000) });
    return res.ok ? ((await res.json()) as string[]) : [];
  } catch {
    return [];
  }
}

/** Each unit runs on exactly one of the instances, and each runs at least `least` of them. */
const sharedOnce = (least: number) => (running: string[][]) => {
  const all = running.flat();
  return all.length === UNITS && new Set(all).size === UNITS && running.every((units) => units.length >= least);
};

describe('three app processes on PostgreSQL and NATS JetStream, one killed (SIGKILL) and restarted under load', () => {
  const id = randomBytes(5).toString('hex');
  const stream = `MP_${id}`;
  let store: TestStore;
  let db: pg.Client;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const instances: AppProcess[] = [];

  const start = () =>
    startAppProcess(
      'dist/test/support/ticket-child.js',
      {
        TICKET_CHILD: JSON.stringify({
          store: store.options,
          nats: NATS_URL,
          stream,
          subjectPrefix: `mp${id}`,
          partitions: PARTITIONS,
          rebalanceIntervalMs: REBALANCE_MS,
          reminderAfterMs: 1_000,
        }),
      },
      /listening (\d+)/,
    );

  beforeAll(async () => {
    store = await createTestStore();
    const schema = (store.options as { schema: string }).schema;
    nc = await connect({ servers: NATS_URL });
    jsm = await jetstreamManager(nc);
    // The first instance creates the schema; the others find it there.
    instances.push(await start());
    instances.push(...(await Promise.all([start(), start()])));
    db = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
    await db.query(`SET search_path TO ${schema}`);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => stopAppProcess(instance)));
    await jsm?.streams.delete(stream).catch(() => undefined);
    await nc?.close();
    await db?.end();
    await store?.cleanup();
  });

  const count = async (sql: string): Promise<number> => Number((await db.query<{ n: string }>(sql)).rows[0].n);

  async function streamMessages(): Promise<Array<{ eventId: string; aggregateType: string; aggregateId: string; sequence: number }>> {
    const { state } = await jsm.streams.info(stream);
    if (state.messages === 0) return [];
    const consumer = await jetstream(nc).consumers.get(stream);
    const out = [];
    for await (const message of await consumer.fetch({ max_messages: state.messages, expires: 10_000 })) {
      out.push(message.json<{ eventId: string; aggregateType: string; aggregateId: string; sequence: number }>());
      if (message.info.pending === 0) break;
    }
    return out;
  }

  it('stores every acknowledged command once, projects and publishes every event once, fires every timer once, and re-owns the partitions in time', async () => {
    await until(() => Promise.all(instances.map(partitionsOf)), sharedOnce(UNITS / 3), 'partitions spread over the three', 30_000, instances);

    const acknowledged: Command[] = [];
    const refused: Array<Command & { status: number; answer: string }> = [];
    let sent = 0;
    let stopLoad = false;

    /** Sends until acknowledged, to the next instance when one does not answer (the same Command-Id each time). */
    async function send(command: Command, first: number): Promise<void> {
      for (let attempt = 0; attempt < 200; attempt++) {
        const instance = instances[(first + attempt) % instances.length];
        try {
          const res = await fetch(`${instance.url}/commands/ticket/${command.ticketId}/${command.type}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'Command-Id': command.commandId },
            body: JSON.stringify(command.body),
            signal: AbortSignal.timeout(10_000),
          });
          if (res.status === 200) {
            acknowledged.push(command);
            return;
          }
          const body = await res.text();
          if (res.status !== 503) {
            refused.push({ ...command, status: res.status, answer: body });
            return;
          }
        } catch {
          // The instance is gone (killed, not back yet) or the answer was lost with it: try the next one.
        }
        await sleep(50);
      }
      throw new Error(`${command.commandId} was never acknowledged`);
    }

    async function client(c: number): Promise<void> {
      for (let i = 0; !stopLoad; i++) {
        const ticketId = `t${c}-${Math.floor(i / 4)}`;
        const command: Command =
          i % 4 === 0
            ? { commandId: `${ticketId}-open`, ticketId, type: 'OpenTicket', body: { title: ticketId } }
            : { commandId: `${ticketId}-c${i % 4}`, ticketId, type: 'CommentTicket', body: { text: `comment ${i % 4}` } };
        await send(command, c + i);
        sent++;
        await sleep(PAUSE_MS);
      }
    }

    const load = Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    try {
      await until(async () => sent, (n) => n >= 60, 'load under way', 60_000);
      const killedAt = Date.now();
      await stopAppProcess(instances[1], 'SIGKILL');
      const survivors = [instances[0], instances[2]];
      await until(() => Promise.all(survivors.map(partitionsOf)), sharedOnce(UNITS / 2), 'partitions re-owned by the two survivors', 30_000, instances);
      const reownedMs = Date.now() - killedAt;
      process.stdout.write(`multi-process: partitions re-owned ${reownedMs} ms after the SIGKILL (bound ${REOWN_BOUND_MS} ms + ${MARGIN_MS} ms margin)\n`);
      expect(reownedMs).toBeLessThan(REOWN_BOUND_MS + MARGIN_MS);

      instances[1] = await start();
      await until(() => Promise.all(instances.map(partitionsOf)), sharedOnce(UNITS / 3), 'partitions shared with the restarted one', 30_000, instances);
      const before = sent;
      await until(async () => sent, (n) => n >= before + 60, 'load after the restart', 60_000);
    } finally {
      stopLoad = true;
      await load;
    }

    expect(refused).toEqual([]);
    const opened = acknowledged.filter((command) => command.type === 'OpenTicket').length;

    // Quiet: every ticket event projected, every timer fired and its reminder stored, every event published.
    await until(
      async () => ({
        ticketEvents: await count(`SELECT count(*) AS n FROM es_events WHERE aggregate_type = 'ticket'`),
        projected: await count('SELECT count(*) AS n FROM ticket_ledger'),
        pendingTimers: await count(`SELECT count(*) AS n FROM es_timers WHERE status = 'pending'`),
        reminded: await count(`SELECT count(*) AS n FROM es_events WHERE event_type = 'TicketReminded'`),
        events: await count('SELECT count(*) AS n FROM es_events'),
        published: (await jsm.streams.info(stream)).state.messages,
      }),
      (s) => s.projected === s.ticketEvents && s.pendingTimers === 0 && s.reminded >= opened && s.published === s.events,
      'projections, timers and the publisher caught up',
      30_000,
      instances,
    );

    // Each acknowledged command stored once (retries after the kill carried the same Command-Id).
    const stored = await db.query<{ command_id: string; n: string }>(
      `SELECT command_id, count(*) AS n FROM es_events WHERE aggregate_type = 'ticket' AND command_id IS NOT NULL GROUP BY command_id`,
    );
    const storedTimes = new Map(stored.rows.map((row) => [row.command_id, Number(row.n)]));
    expect(acknowledged.filter((command) => storedTimes.get(command.commandId) !== 1)).toEqual([]);
    expect(new Set(acknowledged.map((command) => command.commandId)).size).toBe(acknowledged.length);

    // Each event projected exactly once.
    const ledger = await db.query<{ event_id: string; projections: number }>('SELECT event_id, projections FROM ticket_ledger');
    const ticketEventIds = (await db.query<{ event_id: string }>(`SELECT event_id FROM es_events WHERE aggregate_type = 'ticket'`)).rows.map((row) => row.event_id);
    expect(ledger.rows.filter((row) => Number(row.projections) !== 1)).toEqual([]);
    expect(ledger.rows.map((row) => row.event_id).sort()).toEqual(ticketEventIds.sort());

    // No timer fired twice: one ReminderFired and one TicketReminded per opened ticket.
    const fired = await db.query<{ ticket: string; n: string }>(
      `SELECT payload->>'ticketId' AS ticket, count(*) AS n FROM es_events WHERE event_type = 'ReminderFired' GROUP BY 1`,
    );
    expect(fired.rows).toHaveLength(opened);
    expect(fired.rows.filter((row) => Number(row.n) !== 1)).toEqual([]);
    const reminded = await db.query<{ aggregate_id: string; n: string }>(
      `SELECT aggregate_id, count(*) AS n FROM es_events WHERE event_type = 'TicketReminded' GROUP BY 1`,
    );
    expect(reminded.rows).toHaveLength(opened);
    expect(reminded.rows.filter((row) => Number(row.n) !== 1)).toEqual([]);
    expect(await count('SELECT count(*) AS n FROM es_dead_letters')).toBe(0);

    // Every event in the stream once, each aggregate's in its order.
    const published = await streamMessages();
    const allEventIds = (await db.query<{ event_id: string }>('SELECT event_id FROM es_events')).rows.map((row) => row.event_id);
    expect(published.map((message) => message.eventId).sort()).toEqual(allEventIds.sort());
    const last = new Map<string, number>();
    const outOfOrder = published.filter((message) => {
      const key = `${message.aggregateType}/${message.aggregateId}`;
      const inOrder = message.sequence === (last.get(key) ?? 0) + 1;
      last.set(key, message.sequence);
      return !inOrder;
    });
    expect(outOfOrder).toEqual([]);
    process.stdout.write(`multi-process: ${acknowledged.length} commands acknowledged, ${opened} timers, ${allEventIds.length} events stored, projected and published once\n`);
  }, 240_000);
});
