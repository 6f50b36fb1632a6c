import type { ScheduledTimer } from '../store/timer-store.js';

/** What one process step does to its instance's timers (TimerStore.change's arguments). */
export interface TimerChange {
  cancel: readonly string[];
  schedule: readonly ScheduledTimer[];
}

/**
 * The changes of steps that follow one another, as one change with the same outcome: a later step's
 * cancel also reaches what an earlier one scheduled, and TimerStore.change runs its cancels first.
 */
export function combineTimerChanges(changes: readonly TimerChange[]): TimerChange {
  return changes.reduce((earlier, later) => ({
    cancel: [...new Set([...earlier.cancel, ...later.cancel])],
    schedule: [...earlier.schedule.filter((timer) => !later.cancel.includes(timer.name)), ...later.schedule],
  }));
}

export function changesTimers(change: TimerChange): boolean {
  return change.cancel.length > 0 || change.schedule.length > 0;
}
