import type { StoredEvent } from '../model/event-envelope.js';
import type { EventNotifier } from '../runtime/event-notifier.js';

/**
 * This process's appends from the moment a CASCADE command began, for following its correlation
 * without reading the store. A saga or process manager of this process stores what it emits before
 * it moves its checkpoint, so once every hop was seen done by this process's own checkpoint moves,
 * the hop's consequences are among these appends. Another instance's append makes the log incomplete:
 * the wait then reads the store, as it does whenever any of its knowledge came from a read.
 */
export class CorrelationHeard {
  private heard: StoredEvent[] = [];
  private complete = true;
  /** Once known, only this correlation's events are kept: a long wait under load holds no one else's. */
  private correlationId?: string;
  private readonly unsubscribe: Array<() => void>;

  constructor(notifier: EventNotifier) {
    this.unsubscribe = [
      notifier.onAppend((events) => {
        for (const event of events) if (this.keeps(event)) this.heard.push(event);
      }),
      notifier.onAppendElsewhere(() => {
        this.complete = false;
      }),
    ];
  }

  /** From now on keeps only the events of `correlationId` (the command's, known once it returned). */
  keepOnly(correlationId: string): void {
    this.correlationId = correlationId;
    this.heard = this.heard.filter((event) => this.keeps(event));
  }

  /**
   * The correlation's events from `first` on, in position order, as a read of the store would return
   * them; undefined when this log cannot tell (another instance appended, or `known` was not heard
   * here: a repeated command's events were stored before the log began).
   */
  eventsOf(correlationId: string, first: number, known: readonly StoredEvent[]): StoredEvent[] | undefined {
    if (!this.complete) return undefined;
    const events = this.heard.filter((event) => event.position >= first && event.metadata.correlationId === correlationId).sort((a, b) => a.position - b.position);
    const positions = new Set(events.map((event) => event.position));
    return known.every((event) => positions.has(event.position)) ? events : undefined;
  }

  private keeps(event: StoredEvent): boolean {
    return this.correlationId === undefined || event.metadata.correlationId === this.correlationId;
  }

  close(): void {
    for (const stop of this.unsubscribe) stop();
    this.heard = [];
  }
}
