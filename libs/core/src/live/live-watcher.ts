import type { Logger } from '@nestjs/common';
import { Subject } from 'rxjs';
import { errorMessage } from '../errors/error-message.js';

/** What re-runs a live query: the changes a projector says it made, to one key or to any. */
export interface LiveQueryTrigger {
  /** The projector's name (`@Projector(name)`). */
  projector: string;
  /** The key its handlers name with `ctx.changed(key)`; without one, any change the projector says it made. */
  key?: string;
}

/** One message of a live query, in the shape of Nest's `MessageEvent` for `@Sse` routes. */
export interface LiveMessage<T> {
  type: 'update' | 'heartbeat';
  /** The query's result (an update), or nothing (a heartbeat). */
  data: T | '';
}

/**
 * One client's live query: re-runs it when a trigger matches, and sends the result only when it
 * differs from the last one sent. Runs never overlap: a change during a run asks for one more run
 * after it, so the last result sent is never older than the last change.
 */
export class LiveWatcher<T> {
  readonly messages = new Subject<LiveMessage<T>>();
  private lastSent: string;
  private running?: Promise<void>;
  private again = false;

  constructor(
    private readonly query: () => Promise<T>,
    private readonly triggers: readonly LiveQueryTrigger[],
    first: T,
    private readonly logger: Logger,
  ) {
    this.lastSent = JSON.stringify(first);
  }

  /** True when this query watches one of the keys the projector changed. */
  watches(projector: string, keys: ReadonlySet<string>): boolean {
    return this.triggers.some((trigger) => trigger.projector === projector && (trigger.key === undefined || keys.has(trigger.key)));
  }

  rerun(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.rerun();
      }
    });
  }

  heartbeat(): void {
    this.messages.next({ type: 'heartbeat', data: '' });
  }

  close(): void {
    this.messages.complete();
  }

  private async run(): Promise<void> {
    try {
      const result = await this.query();
      const text = JSON.stringify(result);
      if (text === this.lastSent || this.messages.closed) return;
      this.lastSent = text;
      this.messages.next({ type: 'update', data: result });
    } catch (error) {
      // The client keeps the last result; the next change runs the query again.
      this.logger.warn(`a live query failed, its client keeps the last result: ${errorMessage(error)}`);
    }
  }
}
