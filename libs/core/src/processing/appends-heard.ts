import type { StoredEvent } from '../model/event-envelope.js';
import type { EventNotifier } from '../runtime/event-notifier.js';

/** More ignored positions than this unpassed (a subscription catching up, a long gap): read instead of keeping them. */
const MAX_IGNORED = 10_000;

/**
 * What a caught-up subscription has heard of the appends since it last read the store. An event it
 * handles, or an append in another instance (whose events it does not see), means a read. Events it
 * ignores, appended in this process, it can pass without one, as long as their positions follow its
 * own with no gap: every position up to there is then accounted for. A gap (a transaction still
 * committing, a position a rolled-back append used) waits for the next wake-up or the poll.
 */
export class AppendsHeard {
  private unread = true;
  /** Positions of ignored events heard of, in the order heard. */
  private ignored: number[] = [];
  private stopListening?: () => void;

  constructor(
    private readonly notifier: EventNotifier,
    private readonly handles: (event: StoredEvent) => boolean,
  ) {}

  /** Listens from now on; the first question after it asks for a read (nothing is known yet). */
  listen(): void {
    this.close();
    this.unread = true;
    this.ignored = [];
    const local = this.notifier.onAppend((events) => this.heard(events));
    const elsewhere = this.notifier.onAppendElsewhere(() => (this.unread = true));
    this.stopListening = () => {
      local();
      elsewhere();
    };
  }

  close(): void {
    this.stopListening?.();
    this.stopListening = undefined;
  }

  /** Called as a read begins: what is heard from now on is news to it. */
  reading(): void {
    this.unread = false;
  }

  /**
   * Where a subscription at `position` may move without reading (`position` itself when nothing
   * follows it yet), or undefined when it must read.
   */
  passable(position: number): number | undefined {
    if (this.unread) return undefined;
    const ahead = this.ignored.filter((at) => at > position).sort((a, b) => a - b);
    let to = position;
    while (ahead[0] === to + 1) to = ahead.shift()!;
    this.ignored = ahead;
    return to;
  }

  private heard(events: readonly StoredEvent[]): void {
    for (const event of events) {
      if (this.handles(event)) this.unread = true;
      else this.ignored.push(event.position);
    }
    if (this.ignored.length > MAX_IGNORED) {
      this.ignored = [];
      this.unread = true;
    }
  }
}
