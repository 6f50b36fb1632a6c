import { Logger } from '@nestjs/common';
import type pg from 'pg';

const guarded = new WeakSet<pg.Pool>();
const logger = new Logger('PostgresPool');

/**
 * Makes a lost connection an error of the work that used it, never of the process. pg emits 'error'
 * on a client whose connection dies; the pool listens only while the client is idle, so a client
 * checked out at that moment (by TypeORM's query runners, or ours) with no listener of its own would
 * crash the process with an unhandled 'error' event. Every client gets a listener here; the pending
 * query fails on its own, and pg-pool discards a broken client when it is released, so the pool
 * replaces it with a fresh connection on the next checkout.
 */
export function guardPool(pool: pg.Pool): void {
  if (guarded.has(pool)) return;
  guarded.add(pool);
  const onClientError = (error: Error) => logger.warn(`a database connection failed and is discarded: ${error.message}`);
  pool.on('connect', (client) => client.on('error', onClientError));
  // Clients opened before this guard (TypeORM's connection test, the migrations) are in pg-pool's list.
  for (const client of (pool as unknown as { _clients?: pg.PoolClient[] })._clients ?? []) client.on('error', onClientError);
  if (pool.listenerCount('error') === 0) pool.on('error', onClientError);
}
