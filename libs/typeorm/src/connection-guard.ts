import { Logger } from '@nestjs/common';
import type pg from 'pg';

const guarded = new WeakSet<pg.ClientBase>();
const logger = new Logger('PostgresPool');

/**
 * Makes a lost connection an error of the work that used it, never of the process. pg emits 'error'
 * on a client whose connection dies, and an 'error' event nobody listens to crashes the process.
 * pg-pool listens while a client is idle, TypeORM's query runner while it holds one (and releases it
 * as broken), and TypeORM listens on the pool; a connection the stores checked out gets a listener
 * of its own besides, for its whole life, so no hand-over between them leaves it bare. The pending
 * query fails on its own, and pg-pool discards a broken client when it is released, so the pool
 * replaces it with a fresh connection on the next checkout.
 */
export function guardConnection(client: pg.ClientBase): void {
  if (guarded.has(client)) return;
  guarded.add(client);
  client.on('error', onConnectionError);
}

function onConnectionError(error: Error): void {
  logger.warn(`a database connection failed and is discarded: ${error.message}`);
}
