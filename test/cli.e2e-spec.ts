import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import request from 'supertest';
import { CommandGateway, type EventStore } from '@nest-es/core';
import { EVENT_STORE_ADAPTER, SNAPSHOT_STORE } from '@nest-es/core/internal';
import { type SnapshotStore } from '@nest-es/core/adapter';
import { portableQuery, READ_MODEL_DATA_SOURCE, type StoreOptions } from '@nest-es/typeorm';
import type { DataSource } from 'typeorm';
import { DepositFunds, RegisterPlayer } from '../apps/poker/src/player/index.js';
import { PlayerTokens } from '../apps/poker/src/auth/player-tokens.service.js';
import { createPokerApp } from './support/poker-app.js';
import { createTestStore, TEST_DATABASE_URL, type TestStore } from './support/test-store.js';

const run = promisify(execFile);

/** DATABASE_URL for the built CLI, as `npm run cli` reads it. */
function databaseUrl(options: StoreOptions): string {
  if ('type' in options && options.type === 'sqlite') return `sqlite:${options.database}`;
  if ('type' in options && options.type === 'postgres') return `${TEST_DATABASE_URL}?schema=${options.schema}`;
  throw new Error('the CLI opens its own database');
}

async function cli(store: TestStore, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['libs/cli/dist/main.js', '--app', 'dist/apps/poker/src/maintenance.js', ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl(store.options) },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the maintenance CLI (npm run cli), run as a process on the database under test', () => {
  let store: TestStore;

  beforeAll(async () => {
    store = await createTestStore();
    const app = await createPokerApp(store.options);
    const gateway = app.get(CommandGateway);
    for (let i = 0; i < 5; i++) {
      const playerId = `cli-${i}`;
      await gateway.send(Object.assign(new RegisterPlayer(), { playerId, displayName: `P${i}`, email: `p${i}@example.com` }));
      for (let d = 0; d <= i; d++) await gateway.send(Object.assign(new DepositFunds(), { playerId, amount: 10 }));
    }
    await app.close();
  });

  afterAll(async () => {
    await store.cleanup();
  });

  it('snapshots rebuild <type> writes a snapshot of every aggregate at its sequence and prints a summary', async () => {
    const result = await cli(store, 'snapshots', 'rebuild', 'player');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/aggregates\s+5/);
    expect(result.stdout).toMatch(/events replayed\s+20/);
    expect(result.stdout).toMatch(/snapshots written\s+5/);
    const app = await createPokerApp(store.options);
    try {
      const snapshots = app.get<SnapshotStore>(SNAPSHOT_STORE);
      const latest = await snapshots.loadLatest({ aggregateType: 'player', aggregateId: 'cli-4' }, 1);
      expect(latest).toMatchObject({ sequence: 6, state: expect.objectContaining({ bankroll: 50 }) });
    } finally {
      await app.close();
    }
  });

  it('refuses an unknown aggregate type with exit code 1 and the known types', async () => {
    const result = await cli(store, 'snapshots', 'rebuild', 'plyer');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/unknown aggregate type 'plyer'; known: .*player/);
  });

  it('projections rebuild <name> replays a projector from position 0', async () => {
    const result = await cli(store, 'projections', 'rebuild', 'balances');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/projection balances rebuilt up to position \d+/);
    const app = await createPokerApp(store.options);
    try {
      const { token } = await app.get(PlayerTokens).issue('cli-4', 'HUMAN');
      const balance = await request(app.getHttpServer()).get('/players/cli-4/balance').set('Authorization', `Bearer ${token}`);
      expect(balance.body).toEqual({ playerId: 'cli-4', bankroll: 50, reserved: 0, available: 50 });
    } finally {
      await app.close();
    }
    const unknown = await cli(store, 'projections', 'rebuild', 'nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/unknown projector 'nope'; known: .*balances/);
  });

  it('projections rebuild <name> rebuilds a projector that declares its tables blue/green; switch-back puts the replaced tables back', async () => {
    const names = async (): Promise<string[]> => {
      const app = await createPokerApp(store.options);
      try {
        const board = await request(app.getHttpServer()).get('/leaderboard').expect(200);
        return (board.body.entries as Array<{ displayName: string }>).map((entry) => entry.displayName).sort();
      } finally {
        await app.close();
      }
    };
    // A read model gone wrong (the bug a rebuild fixes): every name overwritten.
    const app = await createPokerApp(store.options);
    await portableQuery(app.get<DataSource>(READ_MODEL_DATA_SOURCE), "UPDATE poker_leaderboard SET display_name = 'wrong'");
    await app.close();
    expect(await names()).toEqual(['wrong', 'wrong', 'wrong', 'wrong', 'wrong']);

    const rebuilt = await cli(store, 'projections', 'rebuild', 'leaderboard');
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stderr).toMatch(/^leaderboard: position \d+\/\d+$/m);
    expect(rebuilt.stdout).toMatch(/projection leaderboard rebuilt blue\/green \(copy b[0-9a-z]+\) and switched live at position \d+/);
    expect(await names()).toEqual(['P0', 'P1', 'P2', 'P3', 'P4']);

    const back = await cli(store, 'projections', 'switch-back', 'leaderboard');
    expect(back.code).toBe(0);
    expect(back.stdout).toMatch(/projection leaderboard switched back to its previous copy/);
    expect(await names()).toEqual(['wrong', 'wrong', 'wrong', 'wrong', 'wrong']);
    expect((await cli(store, 'projections', 'switch-back', 'leaderboard')).code).toBe(0);
    expect(await names()).toEqual(['P0', 'P1', 'P2', 'P3', 'P4']);

    const refused = await cli(store, 'projections', 'switch-back', 'balances');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/projector 'balances' declares no tables/);
  });

  it('projections rebuild <name> --in-place clears the tables of a projector that declares them and replays it into the live ones', async () => {
    const app = await createPokerApp(store.options);
    await portableQuery(app.get<DataSource>(READ_MODEL_DATA_SOURCE), "UPDATE poker_leaderboard SET display_name = 'wrong'");
    await app.close();

    const rebuilt = await cli(store, 'projections', 'rebuild', 'leaderboard', '--in-place');
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stdout).toMatch(/projection leaderboard rebuilt up to position \d+/);
    const after = await createPokerApp(store.options);
    try {
      const board = await request(after.getHttpServer()).get('/leaderboard').expect(200);
      expect((board.body.entries as Array<{ displayName: string }>).map((entry) => entry.displayName).sort()).toEqual(['P0', 'P1', 'P2', 'P3', 'P4']);
    } finally {
      await after.close();
    }
  });

  it('events types counts the stored events by type and version and fails on those no upcaster reads', async () => {
    const clean = await cli(store, 'events', 'types');
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(/^type\s+version\s+events\s+first position\s+last position\s+read as$/m);
    expect(clean.stdout).toMatch(/^PlayerRegistered\s+v1\s+5\s+\d+\s+\d+\s+current$/m);
    expect(clean.stdout).toMatch(/^FundsDeposited\s+v1\s+15\s+\d+\s+\d+\s+current$/m);

    const app = await createPokerApp(store.options);
    try {
      const metadata = (eventId: string) => ({ eventId, commandId: null, correlationId: eventId, causationId: null });
      await app.get<EventStore>(EVENT_STORE_ADAPTER).append({
        stream: { aggregateType: 'player', aggregateId: 'cli-legacy' },
        expectedSequence: 0,
        events: [
          { type: 'RetiredThing', payload: {}, metadata: metadata('legacy-1') },
          { type: 'FundsDeposited', schemaVersion: 9, payload: { amount: 1 }, metadata: metadata('legacy-2') },
        ],
      });
    } finally {
      await app.close();
    }
    const flagged = await cli(store, 'events', 'types');
    expect(flagged.code).toBe(1);
    expect(flagged.stdout).toMatch(/^RetiredThing\s+v1\s+1\s+(\d+)\s+\1\s+NO EVENT CLASS: no upcaster reads it$/m);
    expect(flagged.stdout).toMatch(/^FundsDeposited\s+v9\s+1\s+(\d+)\s+\1\s+NEWER than this code's v1: no upcaster reads it$/m);
    expect(flagged.stderr).toMatch(/2 stored event\(s\) have no upcaster to a version this code declares/);
  });

  it('says what is missing when no application is given, and lists its commands on --help', async () => {
    const bare = await run(process.execPath, ['libs/cli/dist/main.js', 'snapshots', 'rebuild', 'player'], { env: { ...process.env, NEST_ES_APP: '' } }).catch((error) => error);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toMatch(/no application given: pass --app <file>/);
    const missing = await run(process.execPath, ['libs/cli/dist/main.js', '--app', 'dist/nowhere.js', 'snapshots', 'rebuild', 'player']).catch((error) => error);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot load the application from dist\/nowhere\.js: the file does not exist/);
    const help = await run(process.execPath, ['libs/cli/dist/main.js', '--help']);
    expect(help.stdout).toMatch(/snapshots/);
    expect(help.stdout).toMatch(/projections/);
    expect(help.stdout).toMatch(/events/);
  });
});
