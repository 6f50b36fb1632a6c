import type { VisiblePage } from '../visible-events.js';
import { SSE_HEARTBEAT, SSE_OPENING, sseEventMessage } from './sse-message.js';
import type { SseResponse } from './sse-response.js';

/** Reads the reader's visible events after a sequence, from the event store (never from a notification). */
export type VisibleReader = (after: number) => Promise<VisiblePage>;

/**
 * One client's live stream of one aggregate. It keeps the last sequence it sent, and on every wake-up
 * reads the store after it: a notification only says "look", so an event is sent once, in order, whether
 * its notification came, came twice or was lost (the next poll finds it). Backpressure: while the socket
 * does not drain it reads nothing, so at most one batch waits in its buffer.
 */
export class LiveStream {
  /** The sequence read up to (hidden events included); the next read starts after it. */
  private lastSequence: number;
  private reading = false;
  /** A wake-up came while reading or blocked: read again once free. */
  private pending = false;
  /** The socket's buffer is full; waiting for 'drain'. */
  private blocked = false;

  constructor(
    readonly aggregateType: string,
    readonly aggregateId: string,
    after: number,
    private readonly read: VisibleReader,
    private readonly response: SseResponse,
    /** A read failed (the view refused this reader now, the store is away): the stream ends, the client reconnects. */
    private readonly onFailure: (error: unknown) => void,
  ) {
    this.lastSequence = after;
    response.onDrain(() => {
      this.blocked = false;
      this.pump();
    });
  }

  get sequence(): number {
    return this.lastSequence;
  }

  get ended(): boolean {
    return this.response.closed;
  }

  /** Sends the headers and a page read before them (so a refusal could still be answered with its status), then catches up. */
  open(first: VisiblePage): void {
    if (this.ended) return;
    this.response.open();
    this.response.write(SSE_OPENING);
    this.send(first);
    this.wake();
  }

  /** Something may have been appended to this aggregate: read after the last sequence, now or once free. */
  wake(): void {
    this.pending = true;
    this.pump();
  }

  /** A comment line, unless the socket is full (then the stream is not idle and the heartbeat not needed). */
  heartbeat(): void {
    if (!this.blocked && !this.ended) this.blocked = !this.response.write(SSE_HEARTBEAT);
  }

  end(): void {
    this.response.end();
  }

  private pump(): void {
    if (this.reading || this.blocked || !this.pending || this.ended) return;
    this.reading = true;
    void this.readWhilePending().finally(() => {
      this.reading = false;
      // A drain that came during the last read finds `reading` set and returns: pick it up here.
      this.pump();
    });
  }

  private async readWhilePending(): Promise<void> {
    while (this.pending && !this.blocked && !this.ended) {
      this.pending = false;
      let page: VisiblePage;
      try {
        page = await this.read(this.lastSequence);
      } catch (error) {
        // Ended meanwhile (shutdown closes the store after the streams): nothing failed for the client.
        if (!this.ended) this.onFailure(error);
        return;
      }
      if (this.ended) return;
      this.send(page);
      if (page.more) this.pending = true;
    }
  }

  private send(page: VisiblePage): void {
    if (page.shown.length > 0) this.blocked = !this.response.write(page.shown.map(sseEventMessage).join(''));
    this.lastSequence = page.last;
  }
}
