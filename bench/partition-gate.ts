import pg from 'pg';

/*
 * Holds the partition leases of a schema's subscriber units while instances join, so that none starts
 * projecting before all of them are there: released at once, each instance takes exactly its share
 * at its next look. The lease is the store's advisory lock on this key (postgres-partition-leases.ts);
 * the throughput figure checks that no instance ran a partition while the gate was shut, so a change
 * of the key cannot go unnoticed.
 */
const LEASE_SQL = `SELECT pg_advisory_lock(hashtextextended('es_lease:' || current_schema() || ':' || $1, 0))`;
/** The instances that joined: the holders of the schema's member-slot locks (ibid.). */
const MEMBERS_SQL = `SELECT count(*)::int AS members FROM pg_locks
  WHERE locktype = 'advisory' AND granted AND objsubid = 2
    AND classid = (hashtext('es_members:' || current_schema())::bigint & 4294967295)::oid`;

export class PartitionGate {
  private constructor(private readonly client: pg.Client) {}

  static async shut(url: string, schema: string, units: string[]): Promise<PartitionGate> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`SET search_path TO ${schema}`);
    for (const unit of units) await client.query(LEASE_SQL, [unit]);
    return new PartitionGate(client);
  }

  /** Waits until `count` instances have joined (each holds a member slot). */
  async joined(count: number, timeoutMs = 30_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const { rows } = await this.client.query<{ members: number }>(MEMBERS_SQL);
      if (rows[0].members === count) return;
      if (performance.now() > deadline) throw new Error(`${rows[0].members} of ${count} instances joined`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Every lease released (the connection ends, as a killed holder's would). */
  open(): Promise<void> {
    return this.client.end();
  }
}
