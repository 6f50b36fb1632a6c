import { DEFAULT_DATABASE_URL, loadPokerConfig, redactUrl } from './poker-config.js';

describe('poker configuration from the environment', () => {
  it('defaults to port 3000 and a SQLite file under ./data', () => {
    expect(loadPokerConfig({})).toEqual({ port: 3000, databaseUrl: DEFAULT_DATABASE_URL, store: { type: 'sqlite', database: 'data/poker.sqlite' } });
  });

  it('reads PORT and DATABASE_URL', () => {
    expect(loadPokerConfig({ PORT: '8080', DATABASE_URL: 'sqlite::memory:' })).toMatchObject({ port: 8080, store: { type: 'sqlite', database: ':memory:' } });
    expect(loadPokerConfig({ DATABASE_URL: 'postgres://u:secret@db:5432/poker?schema=p1' }).store).toMatchObject({ type: 'postgres', schema: 'p1' });
  });

  it('refuses a bad port or an unknown database scheme with a specific message', () => {
    expect(() => loadPokerConfig({ PORT: 'eighty' })).toThrow("PORT must be a port number, got 'eighty'");
    expect(() => loadPokerConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/unsupported database URL scheme "mysql:"/);
  });

  it('masks the password when printing the URL', () => {
    expect(redactUrl('postgres://u:secret@db:5432/poker')).toBe('postgres://u:***@db:5432/poker');
  });
});
