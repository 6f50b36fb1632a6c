import { Logger } from '@nestjs/common';
import type pg from 'pg';
import type { Membership, PartitionLeases } from '@nest-es/core/adapter';
import type { PostgresSqlClient } from './postgres-sql-client.js';

/** Instances' slots: advisory locks (class, slot) whose class is per schema, so pg_locks can list them. */
export const MEMBER_CLASS = `hashtext('es_members:' || current_schema())`;
const TAKE_SLOT_SQL = `SELECT pg_try_advisory_lock(${MEMBER_CLASS}, $1) AS taken`;
const MEMBERS_SQL = `SELECT objid::bigint AS slot FROM pg_locks
  WHERE locktype = 'advisory' AND granted AND objsubid = 2
    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND classid = (${MEMBER_CLASS}::bigint & 4294967295)::oid
  ORDER BY 1`;
const UNIT_KEY = `hashtextextended('es_lease:' || current_schema() || ':' || $1, 0)`;
const ACQUIRE_SQL = `SELECT pg_try_advisory_lock(${UNIT_KEY}) AS taken`;
const RELEASE_SQL = `SELECT pg_advisory_unlock(${UNIT_KEY})`;
const MAX_SLOTS = 4096;

/**
 * Leases as session-level advisory locks on one dedicated connection. PostgreSQL releases them
 * when that connection ends, also when the process is killed (the socket closes), so a dead
 * instance's units are free for the others at once, with no expiry to wait for. If the connection
 * is lost while the process lives, every lease is gone: `onLost` tells the owner to stop the work,
 * and the next `join` starts over on a new connection.
 */
export class PostgresPartitionLeases implements PartitionLeases {
  private readonly logger = new Logger('PartitionLeases');
  private client?: pg.Client;
  private slot = -1;
  private readonly held = new Set<string>();
  private readonly lostListeners = new Set<() => void>();
  private joining?: Promise<void>;

  /** `sql` opens the lease connection: set up like the pooled ones, outside the pool. */
  constructor(private readonly sql: PostgresSqlClient) {}

  join(onLost: () => void): Promise<void> {
    this.lostListeners.add(onLost);
    if (this.client) return Promise.resolve();
    // Its users (the processor, the publisher) join at the same time: they share one connection and
    // slot, where each opening its own would leave a member that runs nothing but is given units.
    this.joining ??= this.connect().finally(() => (this.joining = undefined));
    return this.joining;
  }

  async members(): Promise<Membership> {
    const { rows } = await this.connection().query<{ slot: number }>(MEMBERS_SQL);
    return { self: this.slot, live: rows.map((row) => Number(row.slot)) };
  }

  async tryAcquire(unit: string): Promise<boolean> {
    if (this.held.has(unit)) return true;
    const { rows } = await this.connection().query<{ taken: boolean }>(ACQUIRE_SQL, [unit]);
    if (rows[0].taken) this.held.add(unit);
    return rows[0].taken;
  }

  async release(unit: string): Promise<void> {
    if (!this.held.delete(unit)) return;
    await this.connection().query(RELEASE_SQL, [unit]);
  }

  async leave(): Promise<void> {
    // A join under way ends first, so its connection is closed here rather than left open.
    await this.joining?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    this.held.clear();
    await client?.end().catch(() => undefined);
  }

  /** Nest calls this at shutdown: whoever joined (partitions, the publisher), the connection closes. */
  onApplicationShutdown(): Promise<void> {
    return this.leave();
  }

  private async connect(): Promise<void> {
    const client = this.sql.dedicatedConnection();
    client.on('error', (error) => this.logger.warn(`lease connection lost (${error.message})`));
    client.on('end', () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.held.clear();
      for (const listener of this.lostListeners) listener();
    });
    try {
      await client.connect();
      this.slot = await this.takeSlot(client);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
  }

  private connection(): pg.Client {
    if (!this.client) throw new Error('not joined: the lease connection is closed');
    return this.client;
  }

  private async takeSlot(client: pg.Client): Promise<number> {
    for (let slot = 0; slot < MAX_SLOTS; slot++) {
      const { rows } = await client.query<{ taken: boolean }>(TAKE_SLOT_SQL, [slot]);
      if (rows[0].taken) return slot;
    }
    throw new Error(`no free instance slot among ${MAX_SLOTS}`);
  }
}
