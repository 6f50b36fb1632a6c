import { Logger } from '@nestjs/common';
import type { ProcessTimer, TimerStore } from '../store/timer-store.js';
import { BackgroundLoop } from './background-loop.js';
import type { ProcessManagerHandler } from './process-manager-handler.js';

const DUE_BATCH = 100;

/**
 * Fires due process-manager timers. Timers live in the store, so they survive a restart; a timer
 * is marked fired only after its step ran, and the step is recorded under an id derived from the
 * timer, so a timer fires once even if two instances or a crash deliver it twice.
 */
export class TimerPoller {
  private readonly logger = new Logger('TimerPoller');
  private readonly loop = new BackgroundLoop();

  constructor(
    private readonly timers: TimerStore,
    private readonly handlers: Map<string, ProcessManagerHandler>,
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
      const due = (await this.timers.due(new Date(), DUE_BATCH)).filter(this.runsHere);
      await Promise.all(due.map((timer) => this.fire(timer)));
    } catch (error) {
      this.logger.error(`polling timers failed: ${(error as Error).message}`);
    }
    await this.loop.sleep(this.intervalMs);
  }

  private async fire(timer: Parameters<ProcessManagerHandler['fire']>[0]): Promise<void> {
    const handler = this.handlers.get(timer.owner);
    if (!handler) return;
    try {
      await handler.fire(timer);
      await this.timers.markFired(timer.id);
    } catch (error) {
      if (this.loop.stopped) return;
      this.logger.error(`timer ${timer.name} of ${timer.owner}/${timer.correlationId} failed: ${(error as Error).message}; will try again`);
    }
  }
}
