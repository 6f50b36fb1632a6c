import type { ProcessTimer, ScheduledTimer, TimerStore } from '../timer-store.js';
import { jsonCopy } from './json-copy.js';

type TimerStatus = 'pending' | 'fired' | 'cancelled';

/** Process-manager timers in memory. */
export class InMemoryTimerStore implements TimerStore {
  private readonly timers = new Map<string, { timer: ProcessTimer; status: TimerStatus }>();

  async change(owner: string, correlationId: string, cancel: readonly string[], schedule: readonly ScheduledTimer[]): Promise<void> {
    const names = new Set(cancel);
    for (const entry of this.timers.values()) {
      const { timer } = entry;
      if (entry.status === 'pending' && timer.owner === owner && timer.correlationId === correlationId && names.has(timer.name)) entry.status = 'cancelled';
    }
    for (const timer of schedule) {
      const existing = this.timers.get(timer.id);
      if (existing?.status === 'cancelled') existing.status = 'pending';
      if (existing) continue;
      this.timers.set(timer.id, { timer: { ...timer, owner, correlationId, dueAt: new Date(timer.dueAt.getTime()), payload: jsonCopy(timer.payload) }, status: 'pending' });
    }
  }

  async due(now: Date, limit: number): Promise<ProcessTimer[]> {
    return this.pendingWhere((timer) => timer.dueAt.getTime() <= now.getTime()).slice(0, limit);
  }

  async markFired(id: string): Promise<boolean> {
    const entry = this.timers.get(id);
    if (entry?.status !== 'pending') return false;
    entry.status = 'fired';
    return true;
  }

  async pending(owner: string, correlationId: string): Promise<ProcessTimer[]> {
    return this.pendingWhere((timer) => timer.owner === owner && timer.correlationId === correlationId);
  }

  private pendingWhere(test: (timer: ProcessTimer) => boolean): ProcessTimer[] {
    return [...this.timers.values()]
      .filter((entry) => entry.status === 'pending' && test(entry.timer))
      .map((entry) => ({ ...entry.timer, dueAt: new Date(entry.timer.dueAt.getTime()), payload: jsonCopy(entry.timer.payload) }))
      .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}
