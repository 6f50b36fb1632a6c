import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { ledgerViolations, type CommandOutcome } from './support/player-ledger.js';
import { createTestStore, type TestStore } from './support/test-store.js';

/** A free TCP port, as the OS hands one out. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

interface Instance {
  child: ChildProcess;
  url: string;
  output: string[];
}

/** `npm start` as built by the jest global setup: the poker app in its own process, resolved once it listens. */
async function startPoker(databaseUrl: string): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/apps/poker/src/main.js'], {
    env: { ...process.env, PORT: String(port), DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.join('').includes('poker listening on')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`poker exited with ${code} before listening:\n${output.join('')}`)));
  });
  return { child, url: `http://127.0.0.1:${port}`, output };
}

async function stop({ child }: Instance): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

describe('two poker processes on one PostgreSQL database, racing on the same players', () => {
  let store: TestStore;
  let instances: Instance[] = [];

  beforeAll(async () => {
    store = await createTestStore();
    if (!('url' in store.options) || store.options.type !== 'postgres') throw new Error('this suite needs the PostgreSQL test store');
    const url = new URL(store.options.url);
    url.searchParams.set('schema', store.options.schema!);
    instances = await Promise.all([startPoker(url.toString()), startPoker(url.toString())]);
  });

  afterAll(async () => {
    await Promise.all(instances.map(stop));
    await store.cleanup();
  });

  async function post(instance: Instance, path: string, body: object, headers: Record<string, string> = {}) {
    const res = await fetch(`${instance.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { code?: string } };
  }

  // Bodies are JSON of the HTTP contract; the assertions below check their shape.
  const get = async (instance: Instance, path: string): Promise<any> => (await fetch(`${instance.url}${path}`)).json();

  it('loses no update, stores no sequence twice, and answers every command with its result or a code', async () => {
    const players = ['mp1', 'mp2', 'mp3'];
    const outcomes = new Map<string, CommandOutcome[]>(players.map((id) => [id, []]));
    const send = async (instance: Instance, id: string, commandType: string, body: { amount?: number }, commandId: string, headers: Record<string, string> = {}) => {
      const res = await post(instance, `/commands/player/${id}/${commandType}`, body, { 'Command-Id': commandId, ...headers });
      outcomes.get(id)!.push({ commandId, commandType, amount: body.amount, outcome: res.status === 200 ? 'stored' : String(res.body.code) });
    };
    for (const id of players) {
      expect((await post(instances[0], `/commands/player/${id}/RegisterPlayer`, { displayName: id, email: `${id}@example.com` })).status).toBe(200);
      await send(instances[1], id, 'DepositFunds', { amount: 5000 }, `${id}-seed`);
    }

    // Every command at once, alternating processes; some claim the sequence seen before the storm (2),
    // some insist on STRICT, the rest carry no expectation and meet conflicts at the append.
    await Promise.all(
      Array.from({ length: 90 }, (_, i) => {
        const id = players[i % players.length];
        const commandType = ['DepositFunds', 'WithdrawFunds', 'RenamePlayer'][(i * 7) % 3];
        const body = commandType === 'RenamePlayer' ? { displayName: `name-${i}` } : { amount: 10 + i };
        const headers: Record<string, string> = i % 5 === 0 ? { 'Expected-Sequence': '2' } : i % 7 === 0 ? { 'Merge-Strategy': 'strict', 'Expected-Sequence': '2' } : {};
        return send(instances[i % 2], id, commandType, body, `${id}-${i}`, headers);
      }),
    );

    for (const id of players) {
      const [viewA, viewB, history] = await Promise.all([
        get(instances[0], `/aggregates/player/${id}`),
        get(instances[1], `/aggregates/player/${id}`),
        get(instances[1], `/aggregates/player/${id}/events`),
      ]);
      expect(viewB).toEqual(viewA);
      expect(viewA.sequence).toBe(history.events.length);
      expect(ledgerViolations(history.events, outcomes.get(id)!, viewA.state.bankroll)).toEqual([]);
      const renames = history.events.filter((event: { type: string }) => event.type === 'PlayerRenamed');
      expect(viewA.state.displayName).toBe(renames.length > 0 ? renames[renames.length - 1].payload.displayName : id);
    }
  });
});
