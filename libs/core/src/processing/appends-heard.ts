import type { StoredEvent } from '../model/event-envelope.js';
import type { EventNotifier } from '../runtime/event-notifier.js';
import { jsonCopy } from '../store/memory/json-copy.js';

/** More positions than this heard and not yet passed (a subscription catching up, a long gap): read instead of keeping them. */
const MAX_HEARD = 10_000;

/** What a caught-up subscription may take without reading: up to `to`, with the events it handles among them. */
export interface HeardRun {
  to: number;
  events: StoredEvent[];
}

/** One position heard of: the event itself when the subscription handles it. */
interface Heard {
  position: number;
  event?: StoredEvent;
}

/**
 * What a caught-up subscription has heard of this process's appends since it last read the store.
 * Positions are taken in commit order, so when the positions heard follow the subscription's own with
 * no gap, every position up to there is accounted for: the subscription takes the events it handles
 * among them as they were committed, and passes the others, without a read. A gap before an event it
 * handles (another instance's append, a position a rolled-back append used) or an append in another
 * instance (whose events it does not see) means a read; a gap before ignored events only waits for
 * the next wake-up or the poll. Each subscription gets its own copy of an event, as a read gives; an
 * event appended by the running code is already at the version its upcasters bring older ones to.
 */
export class AppendsHeard {
  private unread = true;
  /** Whether the subscription is caught up, so that it may take events heard: one behind reads them anyway. */
  private taking = false;
  /** In the order heard. */
  private heard: Heard[] = [];
  private stopListening?: () => void;

  constructor(
    private readonly notifier: EventNotifier,
    private readonly handles: (event: StoredEvent) => boolean,
  ) {}

  /** Listens from now on; the first question after it asks for a read (nothing is known yet). */
  listen(): void {
    this.close();
    this.unread = true;
    this.taking = false;
    this.heard = [];
    const local = this.notifier.onAppend((events) => this.hear(events));
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
   * Whether the subscription got to the head: only then does it keep copies of the events it handles
   * to take them. Behind, such an event only means a read, as any read will find it.
   */
  caughtUp(caughtUp: boolean): void {
    this.taking = caughtUp;
  }

  /**
   * What a subscription at `position` takes without reading, at most `limit` events it handles (a
   * run up to `position` itself when nothing follows it yet); undefined when it must read. What it
   * returns is taken: the next call starts after it.
   */
  next(position: number, limit: number): HeardRun | undefined {
    if (this.unread) return undefined;
    const ahead = this.heard.filter((heard) => heard.position > position).sort((a, b) => a.position - b.position);
    const run: HeardRun = { to: position, events: [] };
    let taken = 0;
    while (taken < ahead.length && ahead[taken].position === run.to + 1 && run.events.length < limit) {
      const { position: at, event } = ahead[taken++];
      run.to = at;
      if (event) run.events.push(event);
    }
    const rest = ahead.slice(taken);
    // Stopped at a gap before an event it handles: what it has not heard of came first, and a read finds it.
    if (run.events.length === 0 && rest.some((heard) => heard.event)) return undefined;
    this.heard = rest;
    return run;
  }

  private hear(events: readonly StoredEvent[]): void {
    for (const event of events) {
      if (!this.handles(event)) this.heard.push({ position: event.position });
      else if (this.taking) this.heard.push({ position: event.position, event: copyOf(event) });
      else this.unread = true;
    }
    if (this.heard.length > MAX_HEARD) {
      this.heard = [];
      this.unread = true;
    }
  }
}

/** The event as a read returns it: its own objects, the payload and metadata as JSON gives them back. */
function copyOf(event: StoredEvent): StoredEvent {
  return { ...event, payload: jsonCopy(event.payload), metadata: jsonCopy(event.metadata), occurredAt: new Date(event.occurredAt.getTime()) };
}
