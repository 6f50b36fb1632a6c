import type { StoreOptions } from './adapter-options.js';
import { readModelStore } from './read-model-store.js';

describe('readModelStore', () => {
  it.each([
    ['data/app.sqlite', 'data/app.read-models.sqlite'],
    ['/var/lib/poker.db', '/var/lib/poker.read-models.db'],
    ['events', 'events.read-models'],
    [':memory:', ':memory:'],
    ['', ':memory:'],
  ])('puts the read models of SQLite %j in %j by default', (database, readModels) => {
    expect(readModelStore({ type: 'sqlite', database })).toEqual({ type: 'sqlite', database: readModels });
  });

  it('keeps them in the store on PostgreSQL, or when told to', () => {
    const postgres: StoreOptions = { type: 'postgres', url: 'postgres://db/app' };
    const sqlite: StoreOptions = { type: 'sqlite', database: 'app.sqlite' };
    expect(readModelStore(postgres)).toBe(postgres);
    expect(readModelStore(sqlite, 'store')).toBe(sqlite);
  });

  it('takes the database it is given', () => {
    const own: StoreOptions = { type: 'sqlite', database: 'views.sqlite' };
    expect(readModelStore({ type: 'sqlite', database: 'app.sqlite' }, own)).toBe(own);
  });
});
