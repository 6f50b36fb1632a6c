// PostgreSQL only: a database whose table view an earlier version created with 32-bit chip columns
// gets them widened to BIGINT when the app starts, rows kept; CREATE TABLE IF NOT EXISTS alone would
// leave them, and the first stack past 2^31 would dead-letter the projector for good.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pg from 'pg';
import { createPokerApp } from './support/poker-app.js';
import { createTestStore, TEST_DATABASE_URL, type TestStore } from './support/test-store.js';

describe('poker read models on PostgreSQL: chip columns an earlier version made INTEGER become BIGINT', () => {
  let store: TestStore;
  let app: NestFastifyApplication | undefined;
  let client: pg.Client;
  let schema: string;

  beforeAll(async () => {
    store = await createTestStore();
    schema = (store.options as { schema: string }).schema;
    client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    // The tables as the earlier version created them, with one table and one seat in them.
    await client.query(`CREATE SCHEMA ${schema}`);
    await client.query(`CREATE TABLE ${schema}.poker_tables (
      table_id TEXT PRIMARY KEY, name TEXT NOT NULL, variant TEXT NOT NULL, small_blind INTEGER NOT NULL, big_blind INTEGER NOT NULL,
      min_buy_in INTEGER NOT NULL, max_buy_in INTEGER NOT NULL, max_players INTEGER NOT NULL, action_timeout_ms INTEGER NOT NULL,
      status TEXT NOT NULL, hand_count INTEGER NOT NULL, dealer_position INTEGER NOT NULL, current_hand_id TEXT, last_hand_id TEXT)`);
    await client.query(`CREATE TABLE ${schema}.poker_seats (
      table_id TEXT NOT NULL, seat INTEGER NOT NULL, player_id TEXT NOT NULL, stack INTEGER NOT NULL, sitting_out INTEGER NOT NULL,
      PRIMARY KEY (table_id, seat))`);
    await client.query(`INSERT INTO ${schema}.poker_tables VALUES ('old', 'Old', 'TEXAS_HOLDEM', 5, 10, 100, 1000, 6, 30000, 'waiting', 0, -1, NULL, NULL)`);
    await client.query(`INSERT INTO ${schema}.poker_seats VALUES ('old', 0, 'ann', 500, 0)`);
  });

  afterAll(async () => {
    await app?.close();
    await client?.end();
    await store?.cleanup();
  });

  const typeOf = async (table: string, column: string) =>
    (await client.query<{ data_type: string }>('SELECT data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 AND column_name = $3', [schema, table, column]))
      .rows[0]?.data_type;

  it('widens them at start-up, keeping the rows; a second start finds nothing to do', async () => {
    app = await createPokerApp(store.options);
    for (const column of ['small_blind', 'big_blind', 'min_buy_in', 'max_buy_in']) expect([column, await typeOf('poker_tables', column)]).toEqual([column, 'bigint']);
    expect(await typeOf('poker_seats', 'stack')).toBe('bigint');
    expect(await typeOf('poker_seats', 'seat')).toBe('integer');
    await client.query(`UPDATE ${schema}.poker_seats SET stack = stack + 3000000000 WHERE table_id = 'old'`);
    expect((await client.query(`SELECT stack FROM ${schema}.poker_seats WHERE table_id = 'old'`)).rows).toEqual([{ stack: '3000000500' }]);

    await app.close();
    app = await createPokerApp(store.options);
    expect(await typeOf('poker_seats', 'stack')).toBe('bigint');
  });
});
