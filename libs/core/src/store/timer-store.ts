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

/** A timer one step schedules for its own process instance. */
export type ScheduledTimer = Omit<ProcessTimer, 'owner' | 'correlationId'>;

export interface TimerStore {
  /**
   * One process step's timers, in one commit: the instance's pending timers with a name in `cancel`
   * are cancelled, and each of `schedule` is added unless a timer with its id exists. A cancelled
   * one with its id is pending again (a step replayed); one that fired stays fired. The cancels do
   * not reach the timers this call schedules, as if they ran first.
   */
  change(owner: string, correlationId: string, cancel: readonly string[], schedule: readonly ScheduledTimer[]): Promise<void>;
  /** Pending timers due at `now`, oldest first. */
  due(now: Date, limit: number): Promise<ProcessTimer[]>;
  /** Marks a pending timer fired; false when it was not pending (fired elsewhere or cancelled). */
  markFired(id: string): Promise<boolean>;
  /** Pending timers of one process instance. */
  pending(owner: string, correlationId: string): Promise<ProcessTimer[]>;
}

export const TIMER_STORE = Symbol('TIMER_STORE');
