import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { StoreOptions } from '@nest-es/typeorm';
import type { AppendProcessLoad } from './append-process.js';
import { round } from './stats.js';

export interface AppendLockFigures {
  /** Processes appending at once to one PostgreSQL schema, each with its own store (and append lock turns). */
  processes: number;
  callersPerProcess: number;
  /** Appends committed per second by all of them together. */
  perSec: number;
}

const CALLERS = 64;

function start(load: AppendProcessLoad): { child: ChildProcess; ready: Promise<void>; done: Promise<{ appends: number; seconds: number }> } {
  const child = fork(fileURLToPath(new URL('./append-process.js', import.meta.url)), [JSON.stringify(load)]);
  let ready!: () => void;
  const readyPromise = new Promise<void>((resolve) => (ready = resolve));
  const done = new Promise<{ appends: number; seconds: number }>((resolve, reject) => {
    child.on('message', (message) => (message === 'ready' ? ready() : resolve(message as { appends: number; seconds: number })));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`an appending process exited with ${code}`))));
  });
  return { child, ready: readyPromise, done };
}

/**
 * What the per-schema append lock costs when several processes append: 1, 2 and 3 processes, each
 * with 64 callers of one-event appends (straight through the store), started together; the total rate.
 * If the lock were the limit, more processes would not add appends per second.
 */
export async function measureAppendLock(store: StoreOptions, durationMs: number): Promise<AppendLockFigures[]> {
  const figures: AppendLockFigures[] = [];
  for (const processes of [1, 2, 3]) {
    const children = Array.from({ length: processes }, () => start({ store, callers: CALLERS, durationMs }));
    await Promise.all(children.map((c) => c.ready));
    for (const { child } of children) child.send('go');
    const results = await Promise.all(children.map((c) => c.done));
    const perSec = results.reduce((sum, r) => sum + r.appends / r.seconds, 0);
    figures.push({ processes, callersPerProcess: CALLERS, perSec: round(perSec) });
  }
  return figures;
}
