/**
 * How long a SQLite statement waits inside the driver for another process's lock before SQLITE_BUSY.
 * better-sqlite3 waits synchronously, holding the event loop (and every request with it), so briefly.
 */
export const SQLITE_BUSY_TIMEOUT_MS = 20;

/** How long the store's own calls keep trying, with the event loop free, before SQLITE_BUSY goes to the caller (a command: 503). */
export const SQLITE_LOCK_WAIT_MS = 5_000;

/** A driver's or TypeORM's error saying another connection holds the lock. */
export function isSqliteBusy(error: unknown): boolean {
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: { code?: unknown } };
  return (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) || (typeof driverError?.code === 'string' && driverError.code.startsWith('SQLITE_BUSY'));
}

/**
 * Runs `work` until it gets past another process's lock: each try waits SQLITE_BUSY_TIMEOUT_MS at
 * most, and between tries the event loop is free (5 ms, doubling, up to 100 ms apart). After
 * `budgetMs` the last SQLITE_BUSY is thrown.
 */
export async function outwaitLock<T>(work: () => T | Promise<T>, budgetMs = SQLITE_LOCK_WAIT_MS): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    try {
      return await work();
    } catch (error) {
      if (!isSqliteBusy(error) || Date.now() + pause > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
