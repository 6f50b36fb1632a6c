import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type pg from 'pg';
import type { WakeChannel, WakeKind } from '@nest-es/core/adapter';
import { APPEND_LOCK_SQL } from './postgres-append-lock.js';
import type { PostgresSqlClient } from './postgres-sql-client.js';

/** The channel is per schema, like the store: instances on other schemas of the database are not woken. */
const CHANNEL_SQL = `SELECT 'es_wake_' || current_schema() AS channel`;
const NOTIFY_SQL = `SELECT pg_notify('es_wake_' || current_schema(), $1)`;
/** Sent once the appends holding the append lock have committed, so it follows every append sent before it. */
const NOTIFY_AFTER_APPENDS_SQL = `SELECT pg_notify('es_wake_' || current_schema(), $1) FROM (${APPEND_LOCK_SQL}) AS appends_settled`;
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
 * Wake-ups are sent only once another instance is known (a lone instance's own listener would just
 * receive and drop them, at a cost of about a tenth of each append): every instance says hello when
 * it starts listening, and those that hear it answer.
 */
export class PostgresWakeChannel implements WakeChannel {
  private readonly logger = new Logger('PostgresWakeChannel');
  private readonly id = randomUUID();
  private listener?: pg.Client;
  private closed = false;
  private reconnect?: NodeJS.Timeout;
  private readonly inFlight = new Map<WakeKind, boolean>();
  private readonly again = new Set<WakeKind>();
  /** Whether another instance was heard from (it may have gone since: wake-ups to nobody are harmless). */
  private others = false;

  constructor(
    /** Sends on a pooled connection; opens the listener's own connection. */
    private readonly sql: PostgresSqlClient,
    private readonly appends: AppendAnnouncer,
  ) {}

  async listen(onWake: (kind: WakeKind) => void): Promise<void> {
    this.closed = false;
    await this.connect(onWake).catch((error: Error) => {
      this.logger.warn(`not listening for other instances yet (${error.message}); polling covers meanwhile`);
      this.scheduleReconnect(onWake);
    });
  }

  announce(kind: WakeKind): void {
    // Appends are announced by their own transaction (see meet).
    if (this.closed || kind === 'append' || !this.others) return;
    if (this.inFlight.get(kind)) {
      this.again.add(kind);
      return;
    }
    this.inFlight.set(kind, true);
    this.sql
      .query({ text: NOTIFY_SQL, values: [payload(kind, this.id)] })
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
    const client = this.sql.dedicatedConnection();
    client.on('error', (error) => this.logger.warn(`wake-up listener lost (${error.message}); polling covers until it is back`));
    client.on('end', () => {
      if (this.listener !== client) return;
      this.listener = undefined;
      this.scheduleReconnect(onWake);
    });
    client.on('notification', ({ payload }) => {
      const [kind, sender] = (payload ?? '').split(':');
      if (sender === this.id || !MESSAGES.has(kind)) return;
      if (kind === 'hello') this.send(NOTIFY_SQL, 'here');
      this.meet();
      if (kind === 'append' || kind === 'checkpoint') onWake(kind);
    });
    try {
      await client.connect();
      const { rows } = await client.query<{ channel: string }>(CHANNEL_SQL);
      await client.query(`LISTEN ${client.escapeIdentifier(rows[0].channel)}`);
      // Again after a reconnect: an instance that started meanwhile was not heard.
      await client.query(NOTIFY_SQL, [payload('hello', this.id)]);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) await client.end();
    else this.listener = client;
  }

  /** Another instance is there: from now on appends and checkpoint moves wake it. */
  private meet(): void {
    if (this.others || this.closed) return;
    this.others = true;
    this.appends.announceAppends(payload('append', this.id));
    // What this instance did before it knew of the others went unannounced: one wake-up of each kind
    // covers it, the append one sent after any append still committing.
    this.send(NOTIFY_AFTER_APPENDS_SQL, 'append');
    this.announce('checkpoint');
  }

  private send(sql: string, message: Message): void {
    this.sql.query({ text: sql, values: [payload(message, this.id)] }).catch((error: Error) => this.logger.debug(`wake-up not sent: ${error.message}`));
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

/** What goes over the channel: the wake-ups, and the greetings by which instances learn of each other. */
type Message = WakeKind | 'hello' | 'here';
const MESSAGES = new Set<string>(['append', 'checkpoint', 'hello', 'here'] satisfies Message[]);

const payload = (message: Message, sender: string) => `${message}:${sender}`;
