import type { AppendRequest, AppendResult } from '@nest-es/core/adapter';
import type { AppendOutcome } from './append-plan.js';

/**
 * Which guard a failed transaction hit when one append's own data caused the failure: a uniqueness
 * guard, or other bad input ('request').
 */
export type AppendFault = 'sequence' | 'command' | 'externalId' | 'request';

export interface AppendWriter {
  /** Decides and writes the appends in ONE transaction; resolves only once it committed. */
  write(requests: readonly AppendRequest[]): Promise<AppendOutcome[]>;
  /** The fault behind a failed `write`, or null when the batch failed as a whole (I/O, connection, COMMIT). */
  faultOf(error: unknown): AppendFault | null;
}

/** The error a lone append gets for a fault. */
export type ExplainFault = (fault: AppendFault, request: AppendRequest, error: unknown) => Promise<unknown>;

interface Pending {
  request: AppendRequest;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

/**
 * Group commit: appends that arrive while a transaction runs (or in the same turn of the event loop)
 * share the next transaction, so one commit (one fsync) serves many callers. Refused appends
 * (ConcurrencyError, DuplicateCommandError) write nothing and fail alone. An append whose rows fail
 * in the database makes its batch roll back; the batch is then retried in halves until the append at
 * fault is alone in its transaction, so only it fails. This costs nothing until a fault occurs, unlike a
 * SAVEPOINT per append, which adds two round trips per append on PostgreSQL and, past 64 in one
 * transaction, overflows the server's subtransaction cache and slows every concurrent snapshot.
 * A caller's promise settles only after its batch's COMMIT; if the COMMIT fails, the whole batch rejects.
 */
export class GroupCommit {
  private readonly queue: Pending[] = [];
  private draining = false;

  constructor(
    private readonly writer: AppendWriter,
    private readonly explain: ExplainFault,
    private readonly maxBatchSize: number,
  ) {}

  append(request: AppendRequest): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      if (!this.draining) {
        this.draining = true;
        // The appends of this turn of the event loop join the first batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) await this.commit(this.queue.splice(0, this.maxBatchSize));
    this.draining = false;
  }

  private async commit(batch: Pending[]): Promise<void> {
    let outcomes: AppendOutcome[];
    try {
      outcomes = await this.writer.write(batch.map((pending) => pending.request));
    } catch (error) {
      const fault = this.writer.faultOf(error);
      if (fault === null) {
        for (const pending of batch) pending.reject(error);
      } else if (batch.length > 1) {
        // Bisect: the halves without the fault commit; a fault among 256 costs ~16 transactions.
        const half = batch.length >> 1;
        await this.commit(batch.slice(0, half));
        await this.commit(batch.slice(half));
      } else {
        const [pending] = batch;
        pending.reject(await this.explain(fault, pending.request, error).catch((explainError: unknown) => explainError));
      }
      return;
    }
    outcomes.forEach((outcome, index) => {
      if (outcome instanceof Error) batch[index].reject(outcome);
      else batch[index].resolve(outcome);
    });
  }
}
