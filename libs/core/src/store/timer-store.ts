/** A process manager's timeout, kept in the store so it survives a restart. */
export interface ProcessTimer {
  /** Deterministic: scheduling the same timer twice (a redelivered event) keeps one. */
  id: string;
  /** The process manager's name. */
  owner: string;
  correlationId: string;
  name: string;
  dueAt: Date;
  payload: unknown;
}

export interface TimerStore {
  /** Adds the timer unless one with its id exists; a cancelled one with its id is pending again (a step replayed). */
  schedule(timer: ProcessTimer): Promise<void>;
  /** Cancels the pending timers of that name for one process instance. */
  cancel(owner: string, correlationId: string, name: string): Promise<number>;
  /** Pending timers due at `now`, oldest first. */
  due(now: Date, limit: number): Promise<ProcessTimer[]>;
  /** Marks a pending timer fired; false when it was not pending (fired elsewhere or cancelled). */
  markFired(id: string): Promise<boolean>;
  /** Pending timers of one process instance. */
  pending(owner: string, correlationId: string): Promise<ProcessTimer[]>;
}

export const TIMER_STORE = Symbol('TIMER_STORE');
