import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type pg from 'pg';
import type { WakeChannel, WakeKind } from '../wake-channel.js';

/** The channel is per schema, like the store: instances on other schemas of the database are not woken. */
const CHANNEL_SQL = `SELECT 'es_wake_' || current_schema() AS channel`;
const NOTIFY_SQL = `SELECT pg_notify('es_wake_' || current_schema(), $1)`;
const RECONNECT_MS = 1_000;

/** The event store's side: it sends the append wake-ups itself, in each append's transaction. */
export interface AppendAnnouncer {
  announceAppends(payload: string): void;
}

/**
 * Wake-ups over PostgreSQL's LISTEN/NOTIFY. One dedicated connection listens (a pooled one would
 * be handed to other queries). Appends are announced by the event store's `es_append`, in the
 * append's own transaction: no round trip of their own, and sent only when the events committed.
 * Checkpoint moves go through the pool and are coalesced: while one is in flight, any number of
 * further ones become a single follow-up. A payload carries the sender's id so it skips its own.
 */
export class PostgresWakeChannel implements WakeChannel {
  private readonly logger = new Logger('PostgresWakeChannel');
  private readonly id = randomUUID();
  private listener?: pg.Client;
  private closed = false;
  private reconnect?: NodeJS.Timeout;
  private readonly inFlight = new Map<WakeKind, boolean>();
  private readonly again = new Set<WakeKind>();

  constructor(
    private readonly pool: pg.Pool,
    /** pg's Client class, from the module TypeORM loaded (pg is an optional peer). */
    private readonly Client: typeof pg.Client,
    appends: AppendAnnouncer,
  ) {
    appends.announceAppends(payload('append', this.id));
  }

  async listen(onWake: (kind: WakeKind) => void): Promise<void> {
    this.closed = false;
    await this.connect(onWake).catch((error: Error) => {
      this.logger.warn(`not listening for other instances yet (${error.message}); polling covers meanwhile`);
      this.scheduleReconnect(onWake);
    });
  }

  announce(kind: WakeKind): void {
    // Appends were announced by their own transaction (see the constructor).
    if (this.closed || kind === 'append') return;
    if (this.inFlight.get(kind)) {
      this.again.add(kind);
      return;
    }
    this.inFlight.set(kind, true);
    this.pool
      .query(NOTIFY_SQL, [payload(kind, this.id)])
      .catch((error: Error) => this.logger.debug(`wake-up not sent: ${error.message}`))
      .finally(() => {
        this.inFlight.set(kind, false);
        if (this.again.delete(kind)) this.announce(kind);
      });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnect);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
  }

  private async connect(onWake: (kind: WakeKind) => void): Promise<void> {
    // The pool's settings carry the connection string and the search_path that selects the schema.
    const client = new this.Client(this.pool.options);
    client.on('error', (error) => this.logger.warn(`wake-up listener lost (${error.message}); polling covers until it is back`));
    client.on('end', () => {
      if (this.listener !== client) return;
      this.listener = undefined;
      this.scheduleReconnect(onWake);
    });
    client.on('notification', ({ payload }) => {
      const [kind, sender] = (payload ?? '').split(':');
      if (sender !== this.id && (kind === 'append' || kind === 'checkpoint')) onWake(kind);
    });
    try {
      await client.connect();
      const { rows } = await client.query<{ channel: string }>(CHANNEL_SQL);
      await client.query(`LISTEN ${client.escapeIdentifier(rows[0].channel)}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) await client.end();
    else this.listener = client;
  }

  private scheduleReconnect(onWake: (kind: WakeKind) => void): void {
    if (this.closed) return;
    this.reconnect = setTimeout(() => {
      this.connect(onWake).catch((error: Error) => {
        this.logger.warn(`wake-up listener not reconnected (${error.message}); trying again`);
        this.scheduleReconnect(onWake);
      });
    }, RECONNECT_MS);
  }
}

const payload = (kind: WakeKind, sender: string) => `${kind}:${sender}`;
