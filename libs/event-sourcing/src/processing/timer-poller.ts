import { Logger } from '@nestjs/common';
import type { TimerStore } from '../store/timer-store.js';
import type { ProcessManagerHandler } from './process-manager-handler.js';

const DUE_BATCH = 100;

/**
 * Fires due process-manager timers. Timers live in the store, so they survive a restart; a timer
 * is marked fired only after its step ran, and the step is recorded under an id derived from the
 * timer, so a timer fires once even if two instances or a crash deliver it twice.
 */
export class TimerPoller {
  private readonly logger = new Logger('TimerPoller');
  private stopping = false;
  private readonly wakeUp = new AbortController();
  private loop?: Promise<void>;

  constructor(
    private readonly timers: TimerStore,
    private readonly handlers: Map<string, ProcessManagerHandler>,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeUp.abort();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        const due = await this.timers.due(new Date(), DUE_BATCH);
        await Promise.all(due.map((timer) => this.fire(timer)));
      } catch (error) {
        this.logger.error(`polling timers failed: ${(error as Error).message}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.intervalMs);
        this.wakeUp.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    }
  }

  private async fire(timer: Parameters<ProcessManagerHandler['fire']>[0]): Promise<void> {
    const handler = this.handlers.get(timer.owner);
    if (!handler) return;
    try {
      await handler.fire(timer);
      await this.timers.markFired(timer.id);
    } catch (error) {
      if (this.stopping) return;
      this.logger.error(`timer ${timer.name} of ${timer.owner}/${timer.correlationId} failed: ${(error as Error).message}; will try again`);
    }
  }
}
