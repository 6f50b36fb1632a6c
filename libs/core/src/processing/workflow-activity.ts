/** How long a projector waits at most for this process's workflows before it takes its batch anyway. */
export const PROJECTOR_WAIT_CAP_MS = 20;

/**
 * Whether this process's sagas and process managers have a batch in hand, for the projectors to wait
 * on when the store's writes hold the event loop (SQLite through better-sqlite3). There every commit
 * stops everything else while it lasts, so a projection committed between two hops of a workflow
 * delays the next hop by its whole transaction. Waiting until the workflows are done lets the hops
 * follow one another and lets one projector transaction cover what several hops appended. Where the
 * writes leave the event loop free (PostgreSQL), a projection runs while a workflow waits for the
 * database, and projectors do not wait.
 */
export class WorkflowActivity {
  private busy = 0;
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly projectorsWait: boolean,
    private readonly capMs = PROJECTOR_WAIT_CAP_MS,
  ) {}

  /** Runs a workflow's batch, counted while it is in hand. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    if (!this.projectorsWait) return work();
    this.busy++;
    try {
      return await work();
    } finally {
      if (--this.busy === 0) this.wakeWhenStillIdle();
    }
  }

  /**
   * For a projector about to take a batch: lets the event loop turn once (a workflow woken by the
   * same append starts its batch meanwhile), then waits while any workflow batch is in hand, for
   * `capMs` at most. At once when projectors do not wait.
   */
  async settled(): Promise<void> {
    if (!this.projectorsWait) return;
    await nextTurn();
    if (this.busy === 0) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, this.capMs);
      this.waiters.add(done);
    });
  }

  /**
   * The last batch ended: the waiters go after a turn of the event loop, unless a workflow has begun
   * another batch by then (the next hop of a chain, woken by an append of the batch that ended).
   */
  private wakeWhenStillIdle(): void {
    setImmediate(() => {
      if (this.busy > 0) return;
      for (const wake of [...this.waiters]) wake();
    });
  }
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
