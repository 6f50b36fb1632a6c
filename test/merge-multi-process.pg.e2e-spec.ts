import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { ledgerViolations, type CommandOutcome } from './support/player-ledger.js';
import { type PokerProcess as Instance, startPokerProcess, stopPokerProcess as stop } from './support/poker-process.js';
import { createTestStore, TEST_DATABASE_URL, type TestStore } from './support/test-store.js';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const STREAM = `POKER_MP_${randomBytes(5).toString('hex')}`;

/**
 * Both processes sign and check player tokens with one secret, as a deployment of several would,
 * share the subscribers' work (scale-out) and publish the events to one JetStream stream.
 */
const startPoker = (databaseUrl: string, secret: string) =>
  startPokerProcess(databaseUrl, { POKER_AUTH_SECRET: secret, POKER_SCALE_OUT_PARTITIONS: '4', NATS_URL, POKER_NATS_STREAM: STREAM });

describe('two poker processes on one PostgreSQL database, racing on the same players', () => {
  let store: TestStore;
  let instances: Instance[] = [];

  beforeAll(async () => {
    store = await createTestStore();
    if (!('url' in store.options) || store.options.type !== 'postgres') throw new Error('this suite needs the PostgreSQL test store');
    const url = new URL(store.options.url);
    url.searchParams.set('schema', store.options.schema!);
    const secret = randomBytes(32).toString('base64url');
    instances = await Promise.all([startPoker(url.toString(), secret), startPoker(url.toString(), secret)]);
  });

  afterAll(async () => {
    await Promise.all(instances.map(stop));
    const nc = await connect({ servers: NATS_URL });
    await (await jetstreamManager(nc)).streams.delete(STREAM).catch(() => undefined);
    await nc.close();
    await store.cleanup();
  });

  async function post(instance: Instance, path: string, body: object, headers: Record<string, string> = {}) {
    const res = await fetch(`${instance.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { code?: string } };
  }

  const tokens = new Map<string, string>();
  const signedAs = (id: string) => ({ authorization: `Bearer ${tokens.get(id)}` });

  // Bodies are JSON of the HTTP contract; the assertions below check their shape.
  const get = async (instance: Instance, path: string, id: string): Promise<any> => (await fetch(`${instance.url}${path}`, { headers: signedAs(id) })).json();

  it('loses no update, stores no sequence twice, and answers every command with its result or a code', async () => {
    const players = ['mp1', 'mp2', 'mp3'];
    const outcomes = new Map<string, CommandOutcome[]>(players.map((id) => [id, []]));
    const send = async (instance: Instance, id: string, commandType: string, body: { amount?: number }, commandId: string, headers: Record<string, string> = {}) => {
      const res = await post(instance, `/commands/player/${id}/${commandType}`, body, { 'Command-Id': commandId, ...signedAs(id), ...headers });
      outcomes.get(id)!.push({ commandId, commandType, amount: body.amount, outcome: res.status === 200 ? 'stored' : String(res.body.code) });
    };
    // Registration stores PlayerRegistered and the starting FundsDeposited: sequence 2.
    for (const id of players) {
      const registered = await post(instances[0], '/auth/register', { playerId: id, displayName: id });
      expect(registered.status).toBe(200);
      tokens.set(id, (registered.body as { token: string }).token);
    }

    // Every command at once, alternating processes; some claim the sequence seen before the storm (2),
    // some insist on STRICT, the rest carry no expectation and meet conflicts at the append.
    await Promise.all(
      Array.from({ length: 90 }, (_, i) => {
        const id = players[i % players.length];
        const commandType = ['WithdrawFunds', 'RenamePlayer'][(i * 7) % 2];
        const body = commandType === 'RenamePlayer' ? { displayName: `name-${i}` } : { amount: 10 + i };
        const headers: Record<string, string> = i % 5 === 0 ? { 'Expected-Sequence': '2' } : i % 7 === 0 ? { 'Merge-Strategy': 'strict', 'Expected-Sequence': '2' } : {};
        return send(instances[i % 2], id, commandType, body, `${id}-${i}`, headers);
      }),
    );

    for (const id of players) {
      const [viewA, viewB, history] = await Promise.all([
        get(instances[0], `/aggregates/player/${id}`, id),
        get(instances[1], `/aggregates/player/${id}`, id),
        get(instances[1], `/aggregates/player/${id}/events`, id),
      ]);
      expect(viewB).toEqual(viewA);
      expect(viewA.sequence).toBe(history.events.length);
      // The starting bankroll came with the registration: acknowledged by its 200.
      const welcome = history.events.find((event: { type: string }) => event.type === 'FundsDeposited');
      const acknowledged: CommandOutcome[] = [
        { commandId: welcome.metadata.commandId, commandType: 'DepositFunds', amount: welcome.payload.amount, outcome: 'stored' },
        ...outcomes.get(id)!,
      ];
      expect(ledgerViolations(history.events, acknowledged, viewA.state.bankroll)).toEqual([]);
      const renames = history.events.filter((event: { type: string }) => event.type === 'PlayerRenamed');
      expect(viewA.state.displayName).toBe(renames.length > 0 ? renames[renames.length - 1].payload.displayName : id);
    }
  });

  it('runs scaled out: both are members sharing the work, and every event is in the JetStream stream once', async () => {
    const schema = (store.options as { schema: string }).schema;
    const db = new pg.Client({ connectionString: TEST_DATABASE_URL });
    const nc = await connect({ servers: NATS_URL });
    await db.connect();
    try {
      await db.query(`SET search_path TO ${schema}`);
      const members = await db.query(
        `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2 AND granted
           AND classid = (hashtext('es_members:' || $1::text)::bigint & 4294967295)::oid`,
        [schema],
      );
      expect(members.rows).toHaveLength(2);
      const jsm = await jetstreamManager(nc);
      const events = async () => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM es_events')).rows[0].n);
      const deadline = Date.now() + 30_000;
      while ((await jsm.streams.info(STREAM)).state.messages !== (await events()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      const { state } = await jsm.streams.info(STREAM);
      const ids = new Set<string>();
      for (let seq = state.first_seq; seq <= state.last_seq; seq++) ids.add((await jsm.streams.getMessage(STREAM, { seq }))!.json<{ eventId: string }>().eventId);
      const stored = (await db.query<{ event_id: string }>('SELECT event_id FROM es_events')).rows.map((row) => row.event_id);
      expect(state.messages).toBe(stored.length);
      expect([...ids].sort()).toEqual(stored.sort());
    } finally {
      await nc.close();
      await db.end();
    }
  });
});
