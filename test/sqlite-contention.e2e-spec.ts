import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { AggregateId, Aggregate, Apply, CommandHandler, EventSourcingModule } from '@nest-es/core';
import { EventSourcingHttpModule } from '@nest-es/http';
import { typeorm } from '@nest-es/typeorm';
import { IsString } from 'class-validator';
import { testDatabaseKind } from './support/test-store.js';

class Ping {
  @AggregateId() @IsString() pingId!: string;
}

class Pinged {}

@Aggregate('ping')
class PingAggregate {
  initialState(): object {
    return {};
  }

  @CommandHandler(Ping, { emits: [Pinged], http: true })
  ping(): Pinged {
    return new Pinged();
  }

  @Apply(Pinged)
  onPinged(): void {}
}

/** Another process holding SQLite's write lock on `file` (BEGIN EXCLUSIVE) until it is sent a line. */
async function holdWriteLock(file: string): Promise<ChildProcessWithoutNullStreams> {
  const script = `
    const db = require('better-sqlite3')(process.argv[1]);
    db.exec('BEGIN EXCLUSIVE');
    process.stdout.write('locked\\n');
    process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); process.exit(0); });`;
  const child = spawn(process.execPath, ['-e', script, file], { cwd: process.cwd() });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  return child;
}

/*
 * better-sqlite3 waits for a lock synchronously, on the event loop: with another process holding
 * the store's write lock, every request used to wait 5 s behind one busy store call. Now the store
 * waits out a lock between short tries with the loop free: liveness and readiness answer at once,
 * a command is refused with 503 UNAVAILABLE once its wait runs out, and all is well when the lock goes.
 */
(testDatabaseKind() === 'sqlite' ? describe : describe.skip)('SQLite: another process holding the write lock', () => {
  let folder: string;
  let app: INestApplication;
  let holder: ChildProcessWithoutNullStreams | undefined;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'es-contention-'));
    const moduleRef = await Test.createTestingModule({
      imports: [
        EventSourcingModule.forRoot({ adapter: typeorm({ type: 'sqlite', database: join(folder, 'events.sqlite') }) }),
        EventSourcingHttpModule.forRoot(),
      ],
      providers: [PingAggregate],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });

  afterAll(async () => {
    holder?.kill();
    await app?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const timed = async (call: () => Promise<request.Response>) => {
    const started = performance.now();
    const res = await call();
    return { status: res.status, body: res.body, ms: performance.now() - started };
  };

  it('answers liveness and readiness within a second, refuses commands with 503, and takes them again when the lock goes', async () => {
    const http = () => request(app.getHttpServer());
    expect((await http().post('/commands/ping/before/Ping').send({})).status).toBe(200);
    holder = await holdWriteLock(join(folder, 'events.sqlite'));

    const command = timed(() => http().post('/commands/ping/during/Ping').send({}));
    // While the command waits for the lock, the process serves other requests.
    for (let i = 0; i < 5; i++) {
      const live = await timed(() => http().get('/health/live'));
      const ready = await timed(() => http().get('/health'));
      expect({ live: live.status, liveFast: live.ms < 1_000, readyFast: ready.ms < 1_000 }).toEqual({ live: 200, liveFast: true, readyFast: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const refused = await command;
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 'UNAVAILABLE' });

    holder.stdin.write('release\n');
    await new Promise((resolve) => holder!.once('exit', resolve));
    holder = undefined;
    expect((await http().post('/commands/ping/after/Ping').send({})).status).toBe(200);
  }, 60_000);
});
