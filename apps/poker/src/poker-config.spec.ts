import { DEFAULT_DATABASE_URL, loadPokerConfig, redactUrl } from './poker-config.js';

describe('poker configuration from the environment', () => {
  it('defaults to port 3000 and a SQLite file under ./data', () => {
    expect(loadPokerConfig({})).toEqual({ port: 3000, databaseUrl: DEFAULT_DATABASE_URL, store: { type: 'sqlite', database: 'data/poker.sqlite' }, auth: {} });
  });

  it('reads the security settings and refuses weak or malformed ones', () => {
    const secret = 'x'.repeat(32);
    expect(
      loadPokerConfig({ POKER_AUTH_SECRET: secret, POKER_TOKEN_TTL_SECONDS: '60', POKER_ADMIN_TOKEN: 'op', POKER_SEEDED_DEALS: 'true', POKER_REQUESTS_PER_MINUTE: '30' }),
    ).toMatchObject({ auth: { secret, tokenTtlSeconds: 60, adminToken: 'op', seededDeals: true }, requestsPerMinute: 30 });
    expect(() => loadPokerConfig({ POKER_AUTH_SECRET: 'short' })).toThrow('POKER_AUTH_SECRET must be at least 32 characters');
    expect(() => loadPokerConfig({ POKER_TOKEN_TTL_SECONDS: '-1' })).toThrow("POKER_TOKEN_TTL_SECONDS must be a whole number > 0, got '-1'");
  });

  it('reads the origins allowed besides the server\'s own, as browsers write them, and refuses what is none', () => {
    expect(loadPokerConfig({ POKER_ALLOWED_ORIGINS: 'https://Poker.Example.com/, http://localhost:8080' }).allowedOrigins).toEqual(['https://poker.example.com', 'http://localhost:8080']);
    expect(() => loadPokerConfig({ POKER_ALLOWED_ORIGINS: 'poker.example.com' })).toThrow("POKER_ALLOWED_ORIGINS must list origins such as https://poker.example.com, got 'poker.example.com'");
  });

  it('reads PORT and DATABASE_URL', () => {
    expect(loadPokerConfig({ PORT: '8080', DATABASE_URL: 'sqlite::memory:' })).toMatchObject({ port: 8080, store: { type: 'sqlite', database: ':memory:' } });
    expect(loadPokerConfig({ DATABASE_URL: 'postgres://u:secret@db:5432/poker?schema=p1' }).store).toMatchObject({ type: 'postgres', schema: 'p1' });
  });

  it('refuses a bad port or an unknown database scheme with a specific message', () => {
    expect(() => loadPokerConfig({ PORT: 'eighty' })).toThrow("PORT must be a port number, got 'eighty'");
    expect(() => loadPokerConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/unsupported database URL scheme "mysql:"/);
  });

  it('reads the scale-out and NATS settings; scale-out only on PostgreSQL', () => {
    const postgres = 'postgres://u@db:5432/poker';
    expect(loadPokerConfig({ DATABASE_URL: postgres, POKER_SCALE_OUT_PARTITIONS: '8', POKER_REBALANCE_INTERVAL_MS: '250' }).scaleOut).toEqual({ partitions: 8, rebalanceIntervalMs: 250 });
    expect(loadPokerConfig({ DATABASE_URL: postgres }).scaleOut).toBeUndefined();
    expect(() => loadPokerConfig({ POKER_SCALE_OUT_PARTITIONS: '8' })).toThrow('POKER_SCALE_OUT_PARTITIONS needs a PostgreSQL DATABASE_URL');
    expect(() => loadPokerConfig({ DATABASE_URL: postgres, POKER_SCALE_OUT_PARTITIONS: '0' })).toThrow("POKER_SCALE_OUT_PARTITIONS must be a whole number > 0, got '0'");
    expect(loadPokerConfig({ NATS_URL: 'nats://a:4222,nats://b:4222' }).nats).toEqual({
      servers: ['nats://a:4222', 'nats://b:4222'],
      publisher: { stream: 'POKER_EVENTS', subjectPrefix: 'poker' },
    });
    expect(loadPokerConfig({ NATS_URL: 'nats://a:4222', POKER_NATS_STREAM: 'TABLES' }).nats?.publisher?.stream).toBe('TABLES');
    expect(loadPokerConfig({}).nats).toBeUndefined();
  });

  it('masks the password when printing the URL', () => {
    expect(redactUrl('postgres://u:secret@db:5432/poker')).toBe('postgres://u:***@db:5432/poker');
  });
});
