import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { UnavailableError } from '@nest-es/core';
import { errorMessage, EVENT_STORE, EventNotifier, type EventStore, type StreamId } from '@nest-es/core/internal';
import { EVENT_SOURCING_HTTP_OPTIONS, type EventSourcingHttpOptions } from '../http-options.js';
import { liveSettings, type LiveSettings } from './live-settings.js';
import type { LiveStream } from './live-stream.js';

interface WatchedAggregate {
  stream: StreamId;
  streams: Set<LiveStream>;
}

/**
 * The one watcher of a process for all its live streams. It sleeps until the EventNotifier says
 * something was appended (by this process, or by another one through the store's wake channel, which
 * the notifier relays) or until the poll interval passes, then asks the store how far each watched
 * aggregate is and wakes the streams behind it; they read the events themselves. Per wake-up that is
 * one query per watched aggregate, not per client; an idle poll that finds the log's head unmoved
 * costs one query in all.
 */
@Injectable()
export class LiveEventWatcher implements OnModuleDestroy {
  private readonly logger = new Logger('LiveEvents');
  readonly settings: LiveSettings;
  /** The watched aggregates and their streams, by type and id. */
  private readonly watched = new Map<string, WatchedAggregate>();
  private count = 0;
  private closing = false;
  private readonly stop = new AbortController();
  private loop?: Promise<void>;
  private heartbeats?: NodeJS.Timeout;
  /** The log's head at the last look; a poll that finds it unmoved has nothing to wake. */
  private lastHead = -1;
  private failing = false;

  constructor(
    private readonly notifier: EventNotifier,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(EVENT_SOURCING_HTTP_OPTIONS) options: EventSourcingHttpOptions,
  ) {
    this.settings = liveSettings(options.live);
  }

  /**
   * Takes a slot for a new stream, or refuses with 503 when the process serves its maximum or is
   * shutting down. The caller must `release` it if the stream is not added after all.
   */
  reserve(): void {
    this.assertOpen();
    if (this.count >= this.settings.maxStreams) {
      throw new UnavailableError(`this server already serves its maximum of ${this.settings.maxStreams} live streams; retry shortly`);
    }
    this.count++;
  }

  /** Refuses with 503 once shutdown began: a stream opened now would hold the HTTP server's close. */
  assertOpen(): void {
    if (this.closing) throw new UnavailableError('the server is shutting down; reconnect to another instance');
  }

  release(): void {
    this.count--;
  }

  /** Watches a stream holding a reserved slot until it ends (the slot is released then). */
  add(stream: LiveStream, onEnd: (listener: () => void) => void): void {
    if (stream.ended) {
      // The client left while its first page was read: its 'close' has passed and would release nothing.
      this.release();
      return;
    }
    const { aggregateType, aggregateId } = stream;
    const key = JSON.stringify([aggregateType, aggregateId]);
    let aggregate = this.watched.get(key);
    if (!aggregate) this.watched.set(key, (aggregate = { stream: { aggregateType, aggregateId }, streams: new Set() }));
    const { streams } = aggregate;
    streams.add(stream);
    onEnd(() => {
      streams.delete(stream);
      if (streams.size === 0 && this.watched.get(key) === aggregate) this.watched.delete(key);
      this.release();
    });
    this.startOnce();
  }

  /**
   * Ends every stream before Nest closes the HTTP server, which would otherwise wait for them; clients
   * reconnect (to another instance) with their Last-Event-ID. Nothing here is awaited: a read under
   * way finds its stream ended and sends nothing.
   */
  onModuleDestroy(): void {
    this.closing = true;
    this.stop.abort();
    clearInterval(this.heartbeats);
    this.forEachStream((stream) => stream.end());
  }

  private startOnce(): void {
    if (this.loop || this.closing) return;
    this.heartbeats = setInterval(() => this.forEachStream((stream) => stream.heartbeat()), this.settings.heartbeatMs);
    this.heartbeats.unref();
    this.loop = this.watch();
  }

  private async watch(): Promise<void> {
    let seen = this.notifier.appendCount;
    while (!this.stop.signal.aborted) {
      // `seen` was noted before the last look: an append heard during it wakes this wait at once.
      await this.notifier.nextAppend(this.settings.pollMs, this.stop.signal, seen);
      if (this.stop.signal.aborted) return;
      const heard = this.notifier.appendCount;
      const notified = heard !== seen;
      seen = heard;
      await this.look(notified);
    }
  }

  /** Wakes the streams whose aggregate is past their last sequence; the store is asked, the notification is not trusted. */
  private async look(notified: boolean): Promise<void> {
    if (this.watched.size === 0) return;
    try {
      const head = await this.store.headPosition();
      // A notification always looks: the event may be readable on its stream before the head covers it.
      if (!notified && head === this.lastHead) return;
      this.lastHead = head;
      for (const { stream: id, streams } of [...this.watched.values()]) {
        if (this.stop.signal.aborted) return;
        const sequence = await this.store.streamSequence(id);
        for (const stream of streams) if (stream.sequence < sequence) stream.wake();
      }
      this.failing = false;
    } catch (error) {
      // The store may be away for a while: say so once, keep looking each interval.
      if (!this.failing && !this.stop.signal.aborted) this.logger.warn(`cannot look for new events: ${errorMessage(error)}`);
      this.failing = true;
      this.lastHead = -1;
    }
  }

  private forEachStream(action: (stream: LiveStream) => void): void {
    for (const { streams } of [...this.watched.values()]) for (const stream of [...streams]) action(stream);
  }
}
