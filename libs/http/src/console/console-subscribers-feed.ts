import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { UnavailableError } from '@nest-es/core';
import { errorMessage, EventNotifier, SubscriberOverviewReader } from '@nest-es/core/internal';
import { SSE_HEARTBEAT, SSE_OPENING, sseMessage } from '../live/sse-message.js';
import type { SseResponse } from '../live/sse-response.js';

/** Console pages one process serves the live subscribers view to at once (operators, not users). */
export const MAX_CONSOLE_FEEDS = 16;
/** The most often the view is read and sent, however busy the store is. */
const MIN_INTERVAL_MS = 250;
/** A look without a wake-up: held events' retries and lag in time change without any append or checkpoint. */
const BACKSTOP_MS = 1_000;
const HEARTBEAT_MS = 15_000;

interface Feed {
  response: SseResponse;
  /** The socket's buffer is full: the newest view is sent on 'drain' instead. */
  blocked: boolean;
}

/**
 * The console's subscribers view pushed to its open pages: one loop per process reads the view when
 * something was appended or checkpointed (here or, through the wake channel, elsewhere) and at least
 * every second, and sends it to every page when it differs from the last one sent. A page whose
 * socket is full skips views and gets the newest once it drains: it never queues stale ones.
 */
@Injectable()
export class ConsoleSubscribersFeed implements OnModuleDestroy {
  private readonly logger = new Logger('ConsoleFeed');
  private readonly feeds = new Set<Feed>();
  private latest?: string;
  private running = false;
  private closing = false;
  private readonly stop = new AbortController();

  constructor(
    private readonly overview: SubscriberOverviewReader,
    private readonly notifier: EventNotifier,
  ) {}

  /** Refuses with 503 at the cap or during shutdown; otherwise the caller may `add` a feed. */
  assertRoom(): void {
    if (this.closing) throw new UnavailableError('the server is shutting down; reconnect to another instance');
    if (this.feeds.size >= MAX_CONSOLE_FEEDS) throw new UnavailableError(`this server already serves ${MAX_CONSOLE_FEEDS} live console views; close one or retry shortly`);
  }

  /** The view as it is now, as the message a feed sends. */
  async view(): Promise<string> {
    this.latest = sseMessage('subscribers', await this.overview.read());
    return this.latest;
  }

  /** Opens the stream with `first` (a `view()`), then keeps it current until the page goes away. */
  add(response: SseResponse, first: string): void {
    const feed: Feed = { response, blocked: false };
    this.feeds.add(feed);
    response.onClose(() => this.feeds.delete(feed));
    response.onDrain(() => {
      feed.blocked = false;
      if (this.latest !== undefined) this.send(feed, this.latest);
    });
    response.open();
    response.write(SSE_OPENING);
    this.send(feed, first);
    this.startOnce();
  }

  onModuleDestroy(): void {
    this.closing = true;
    this.stop.abort();
    for (const feed of this.feeds) feed.response.end();
  }

  private send(feed: Feed, message: string): void {
    if (!feed.blocked && !feed.response.closed) feed.blocked = !feed.response.write(message);
  }

  private startOnce(): void {
    if (this.running || this.closing) return;
    this.running = true;
    void this.loop().finally(() => (this.running = false));
  }

  private async loop(): Promise<void> {
    let lastSent = '';
    let lastWrite = Date.now();
    let seen = this.heard();
    while (!this.stop.signal.aborted) {
      await new Promise((resolve) => setTimeout(resolve, MIN_INTERVAL_MS).unref());
      await this.nextWake(seen);
      if (this.stop.signal.aborted || this.feeds.size === 0) return;
      // Noted before the read: what is appended or checkpointed during it wakes the next wait at once.
      seen = this.heard();
      try {
        const { at, ...view } = await this.overview.read();
        const shown = JSON.stringify(view);
        if (shown !== lastSent) {
          lastSent = shown;
          this.latest = sseMessage('subscribers', { at, ...view });
          for (const feed of this.feeds) this.send(feed, this.latest);
          lastWrite = Date.now();
        } else if (Date.now() - lastWrite >= HEARTBEAT_MS) {
          for (const feed of this.feeds) this.send(feed, SSE_HEARTBEAT);
          lastWrite = Date.now();
        }
      } catch (error) {
        this.logger.warn(`subscribers view not read: ${errorMessage(error)}`);
      }
    }
  }

  private heard(): { appends: number; checkpoints: number } {
    return { appends: this.notifier.appendCount, checkpoints: this.notifier.checkpointCount };
  }

  /** The next append or checkpoint move heard by this process, or the backstop. */
  private async nextWake(seen: { appends: number; checkpoints: number }): Promise<void> {
    if (this.stop.signal.aborted) return;
    const done = new AbortController();
    const abort = () => done.abort();
    this.stop.signal.addEventListener('abort', abort, { once: true });
    try {
      await Promise.race([
        this.notifier.nextAppend(BACKSTOP_MS, done.signal, seen.appends),
        this.notifier.nextCheckpoint(BACKSTOP_MS, done.signal, seen.checkpoints),
      ]);
    } finally {
      done.abort();
      this.stop.signal.removeEventListener('abort', abort);
    }
  }
}
