import { isSqliteBusy, outwaitLock } from './sqlite-lock.js';

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

describe('outwaitLock', () => {
  it('tries again while the lock is held, and returns what the first try past it gives', async () => {
    let tries = 0;
    const result = await outwaitLock(() => {
      if (++tries < 4) throw busy();
      return 'written';
    });
    expect({ result, tries }).toEqual({ result: 'written', tries: 4 });
  });

  it('throws any other error at once', async () => {
    let tries = 0;
    const failing = outwaitLock(() => {
      tries++;
      throw new Error('constraint');
    });
    await expect(failing).rejects.toThrow('constraint');
    expect(tries).toBe(1);
  });

  it('gives the lock up after its budget, with SQLITE_BUSY', async () => {
    await expect(outwaitLock(() => Promise.reject(busy()), 30)).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
  });

  it("knows TypeORM's wrapping of the driver's error", () => {
    expect(isSqliteBusy({ driverError: { code: 'SQLITE_BUSY_SNAPSHOT' } })).toBe(true);
    expect(isSqliteBusy({ code: 'SQLITE_CONSTRAINT' })).toBe(false);
    expect(isSqliteBusy(undefined)).toBe(false);
  });
});
