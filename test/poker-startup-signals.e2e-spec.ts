// SIGTERM at any moment of the poker server's start-up ends it cleanly: exit code 0, whatever was
// open closed. The server runs as `npm start` runs it (dist/, built by the jest global setup), on the
// database under test (SQLite, or PostgreSQL with test:postgres).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createTestStore, type TestStore } from './support/test-store.js';

/**
 * The moments of the start-up a signal is sent at: once the process has printed this. Sooner than the
 * first, Node is still starting and no program's handler exists yet: the signal's default action
 * ends the process, whatever it is.
 */
const MOMENTS: Array<[string, RegExp]> = [
  ['as soon as the entry runs, while the app\'s modules load', /poker starting/],
  ['as Nest starts creating the app', /Starting Nest application/],
  ['while the modules are created (the store open)', /EventSourcingModule dependencies initialized/],
  ['while the routes are mapped', /Mapped \{/],
  ['once the app is initialized, before it listens', /Nest application successfully started/],
  ['once it listens', /poker listening on/],
];

describe('the poker server stops cleanly on SIGTERM at any moment of its start-up', () => {
  let store: TestStore;
  let databaseUrl: string;

  beforeAll(async () => {
    store = await createTestStore();
    const options = store.options as { type: string; database?: string; url?: string; schema?: string };
    if (options.type === 'sqlite') databaseUrl = `sqlite:${options.database}`;
    else {
      const url = new URL(options.url!);
      url.searchParams.set('schema', options.schema!);
      databaseUrl = url.toString();
    }
  });

  afterAll(async () => {
    await store?.cleanup();
  });

  it.each(MOMENTS)('SIGTERM %s: exit code 0', async (_moment, after) => {
    const child = spawn(process.execPath, ['dist/apps/poker/src/main.js'], {
      env: { ...process.env, PORT: '0', DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    const output: string[] = [];
    let signalled = false;
    const signal = () => {
      if (signalled) return;
      signalled = true;
      child.kill('SIGTERM');
    };
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      if (after.test(output.join(''))) signal();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const watchdog = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const [code, bySignal] = await exited;
    clearTimeout(watchdog);
    expect({ signalled, code, bySignal }).toEqual({ signalled: true, code: 0, bySignal: null });
    expect(output.join('')).not.toMatch(/Error|exception/i);
  });
});
