// Every `curl` example of the repository's Markdown is run, with the real curl, against the app it is
// written for, and must get the status its doc states on the line after it (`# → 200 ...`; see
// CONTRIBUTING.md). An example that states none fails the check, so no new example escapes it.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type CurlExample, type CurlOutcome, curlExamplesOf, runCurlExamples } from './support/doc-curl-examples.js';
import { createMergeApp } from './support/merge-app.js';
import { startPokerServer } from './support/poker-server.js';
import { createTestStore } from './support/test-store.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'data', 'coverage', 'artifacts']);

function markdownFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return SKIPPED.has(name) ? [] : markdownFiles(path);
    return name.endsWith('.md') ? [relative(root, path)] : [];
  });
}

/** An app serving the examples of one file, listening on a port of its own. */
interface Served {
  port: number;
  /** The variables the doc tells its reader to have. */
  env?: Record<string, string>;
  close(): Promise<void>;
}

const portOf = (app: INestApplication) => (app.getHttpServer().address() as AddressInfo).port;

/** The poker app (its module and HTTP set-up as `npm start` has them, less the rate limit), with the operator's token the docs pass as $ADMIN_TOKEN. */
async function pokerApp(): Promise<Served> {
  const store = await createTestStore();
  const adminToken = 'the-operator-token-of-the-docs-check';
  const { app } = await startPokerServer(store.options, { auth: { adminToken } });
  const close = async () => {
    await app.close();
    await store.cleanup();
  };
  return { port: portOf(app), env: { ADMIN_TOKEN: adminToken }, close };
}

/** The README's quick-start example (docs/examples/quick-start), as its main.ts starts it. */
async function quickStartApp(): Promise<Served> {
  const folder = mkdtempSync(join(tmpdir(), 'docs-quick-start-'));
  process.env.DATABASE_FILE = join(folder, 'app.sqlite');
  // Imported after DATABASE_FILE is set: the module reads it when its decorator runs.
  const { AppModule } = await import('../docs/examples/quick-start/app.module.js');
  const app = await NestFactory.create(AppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  return {
    port: portOf(app),
    close: async () => {
      await app.close();
      delete process.env.DATABASE_FILE;
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** test/support/merge-app.ts: the poker player and an aggregate per merge strategy, every command open to anyone. */
async function mergeTestApp(before?: (base: string) => Promise<void>): Promise<Served> {
  const store = await createTestStore();
  const app = await createMergeApp(store.options);
  await app.listen(0, '127.0.0.1');
  const close = async () => {
    await app.close();
    await store.cleanup();
  };
  try {
    await before?.(`http://127.0.0.1:${portOf(app)}`);
  } catch (error) {
    await close();
    throw error;
  }
  return { port: portOf(app), close };
}

/**
 * As docs/merge-strategies.md sets the scene for its retry flow: "Alice is at sequence 5 with
 * bankroll: 1000", then "a deposit lands at 6 (bankroll 1000 -> 1500)".
 */
async function aliceAtSequence6(base: string): Promise<void> {
  const send = async (command: string, body: object) => {
    const res = await fetch(`${base}/commands/player/alice/${command}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`${command}: ${res.status} ${await res.text()}`);
  };
  await send('RegisterPlayer', { displayName: 'Alice', email: 'alice@example.com' });
  for (const amount of [400, 300, 200, 100, 500]) await send('DepositFunds', { amount });
}

/** The app each file's examples are written for, as its text says; the poker app unless named here. */
const APP_OF_FILE: Record<string, () => Promise<Served>> = {
  'README.md': quickStartApp,
  'docs/merge-strategies.md': () => mergeTestApp(aliceAtSequence6),
  'docs/operations.md': () => mergeTestApp(),
};

const examplesByFile = new Map<string, CurlExample[]>(
  markdownFiles(root)
    .sort()
    .map((file) => [file, curlExamplesOf(readFileSync(join(root, file), 'utf8'), file)] as const)
    .filter(([, examples]) => examples.length > 0),
);
const allExamples = [...examplesByFile.values()].flat();
const firstLine = (example: CurlExample) => example.command.split('\n')[0].trim();

describe('the curl examples of the docs', () => {
  it('are found, each stating the status it gets and addressed to localhost:3000', () => {
    expect([...examplesByFile.keys()]).toEqual(expect.arrayContaining(['README.md', 'apps/poker/README.md', 'docs/http-api.md']));
    const unstated = allExamples.filter((example) => example.expectedStatus === undefined);
    expect(unstated.map((example) => `${example.where}: ${firstLine(example)}  (add the line "# → <status> ..." after it)`)).toEqual([]);
    const elsewhere = allExamples.filter((example) => !/(^|[\s'"/])localhost:3000\b/.test(example.command));
    expect(elsewhere.map((example) => `${example.where}: ${firstLine(example)}  (address localhost:3000)`)).toEqual([]);
  });

  it.each([...examplesByFile].map(([file, examples]) => [file, examples.length] as const))(
    '%s: each of its %i examples, run in order, gets the status the doc states',
    async (file) => {
      const examples = examplesByFile.get(file)!;
      const served = await (APP_OF_FILE[file] ?? pokerApp)();
      let outcomes: CurlOutcome[];
      try {
        outcomes = await runCurlExamples(examples, { port: served.port, env: served.env });
      } finally {
        await served.close();
      }
      const stated = examples.map((example) => `${example.where}: ${firstLine(example)} → ${example.expectedStatus}`);
      const got = examples.map((example, index) => {
        const { status, output } = outcomes[index];
        const line = `${example.where}: ${firstLine(example)} → ${status}`;
        return status === example.expectedStatus ? line : `${line}\n    answered: ${output.trim()}`;
      });
      expect(got).toEqual(stated);
    },
    300_000,
  );
});
