import { Logger } from '@nestjs/common';
import type { ProcessTimer, TimerStore } from '../store/timer-store.js';
import { BackgroundLoop } from './background-loop.js';
import { DEFAULT_RETRY_POLICY, retryDelay } from './retry-policy.js';
import type { ProcessManagerReactor } from './process-manager-reactor.js';

const DUE_BATCH = 100;

/**
 * Fires due process-manager timers. Timers live in the store, so they survive a restart; a timer
 * is marked fired only after its step ran, and the step is recorded under an id derived from the
 * timer, so a timer fires once even if two instances or a crash deliver it twice.
 */
export class TimerPoller {
  private readonly logger = new Logger('TimerPoller');
  private readonly loop = new BackgroundLoop();
  /** Timers whose step failed: how often, and not before when they are tried again (backoff, capped). */
  private readonly failing = new Map<string, { failures: number; retryAt: number }>();

  constructor(
    private readonly timers: TimerStore,
    private readonly handlers: Map<string, ProcessManagerReactor>,
    private readonly intervalMs: number,
    /** Under scale-out, only the instance running the process's partition fires its timers. */
    private readonly runsHere: (timer: ProcessTimer) => boolean = () => true,
  ) {}

  start(): void {
    this.loop.start(() => this.poll());
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async poll(): Promise<void> {
    try {
      const now = Date.now();
      const pending = await this.timers.due(new Date(now), DUE_BATCH);
      // A failing timer no longer due (cancelled, or fired by another instance) is forgotten.
      const ids = new Set(pending.map((timer) => timer.id));
      for (const id of this.failing.keys()) if (!ids.has(id)) this.failing.delete(id);
      const due = pending.filter((timer) => this.runsHere(timer) && (this.failing.get(timer.id)?.retryAt ?? 0) <= now);
      await Promise.all(due.map((timer) => this.fire(timer)));
    } catch (error) {
      this.logger.error(`polling timers failed: ${(error as Error).message}`);
    }
    await this.loop.sleep(this.intervalMs);
  }

  private async fire(timer: ProcessTimer): Promise<void> {
    const handler = this.handlers.get(timer.owner);
    if (!handler) return;
    try {
      await handler.fire(timer);
      await this.timers.markFired(timer.id);
      this.failing.delete(timer.id);
    } catch (error) {
      if (this.loop.stopped) return;
      const failures = (this.failing.get(timer.id)?.failures ?? 0) + 1;
      const delay = retryDelay(DEFAULT_RETRY_POLICY, failures);
      this.failing.set(timer.id, { failures, retryAt: Date.now() + delay });
      this.logger.error(`timer ${timer.name} of ${timer.owner}/${timer.correlationId} failed ${failures} times: ${(error as Error).message}; tried again in ${delay} ms`);
    }
  }
}
