import 'reflect-metadata';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandGateway } from '@nest-es/core';
import { READ_MODEL_DATA_SOURCE } from '@nest-es/typeorm';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { registerAndDeposit } from './quick-start/deposit.js';
import { DepositFunds } from './quick-start/player.aggregate.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const exampleDir = fileURLToPath(new URL('quick-start', import.meta.url));

/** The ```ts blocks of a Markdown file, without their fences. */
function typescriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
}

describe('the README', () => {
  it('shows only TypeScript that is in the type-checked quick-start example, word for word', () => {
    const sources = readdirSync(exampleDir)
      .filter((name) => name.endsWith('.ts'))
      .map((name) => readFileSync(join(exampleDir, name), 'utf8'));
    const blocks = typescriptBlocks(readFileSync(join(root, 'README.md'), 'utf8'));
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    const missing = blocks.filter((block) => !sources.some((source) => source.includes(block)));
    expect(missing).toEqual([]);
  });
});

describe('the quick-start example', () => {
  let folder: string;
  let app: INestApplication;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'es-quick-start-'));
    process.env.DATABASE_FILE = join(folder, 'app.sqlite');
    // Imported after DATABASE_FILE is set: the module reads it when its decorator runs.
    const { AppModule } = await import('./quick-start/app.module.js');
    app = await NestFactory.create(AppModule, { logger: false });
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
    delete process.env.DATABASE_FILE;
    rmSync(folder, { recursive: true, force: true });
  });

  it('boots on SQLite, stores the deposit and has the projection up to date when a SIMPLE send returns', async () => {
    const result = await registerAndDeposit(app.get(CommandGateway));
    expect(result).toMatchObject({ aggregateType: 'player', aggregateId: 'alice', sequence: 2, commandId: 'deposit-1', duplicate: false });
    expect(result.events.map((event) => event.type)).toEqual(['FundsDeposited']);
    const rows = await app.get<DataSource>(READ_MODEL_DATA_SOURCE).query('SELECT bankroll FROM balances WHERE player_id = ?', ['alice']);
    expect(rows).toEqual([{ bankroll: 500 }]);
  });

  it('answers a repeated command id with the first result and appends nothing', async () => {
    const again = await app.get(CommandGateway).send(Object.assign(new DepositFunds(), { playerId: 'alice', amount: 500 }), { commandId: 'deposit-1' });
    expect(again).toMatchObject({ sequence: 2, duplicate: true });
  });

  it('takes the same commands over HTTP, and refuses a deposit to an unregistered player with 409', async () => {
    const http = request(app.getHttpServer());
    await http.post('/commands/player/bob/RegisterPlayer').send({ displayName: 'Bob' }).expect(200);
    const deposit = await http.post('/commands/player/bob/DepositFunds').set('Sync-Mode', 'simple').send({ amount: 250 });
    expect(deposit.body).toMatchObject({ aggregateType: 'player', aggregateId: 'bob', sequence: 2 });
    await http.get('/aggregates/player/bob').expect(200, { state: { registered: true, bankroll: 250 }, sequence: 2 });
    const refused = await http.post('/commands/player/carol/DepositFunds').send({ amount: 1 });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'FAILED_PRECONDITION', message: 'player is not registered' });
  });
});
