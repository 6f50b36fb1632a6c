import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { BackgroundLoop } from '@nest-es/core/internal';
import { EventNotifier } from '@nest-es/core/internal';
import { CHECKPOINT_STORE } from '@nest-es/core/internal';
import { type CheckpointStore } from '@nest-es/core/adapter';
import type { StoredEvent } from '@nest-es/core';
import { EVENT_STORE, type EventStore } from '@nest-es/core';
import { PARTITION_LEASES } from '@nest-es/core/internal';
import { type PartitionLeases } from '@nest-es/core/adapter';
import { NATS_JETSTREAM_OPTIONS, type NatsJetStreamOptions } from './jetstream-options.js';
import { connectJetStream, type JetStreamConnection } from './nats-client.js';

const DEFAULT_BATCH_SIZE = 500;
const POLL_MS = 250;
const MAX_BACKOFF_MS = 5_000;
const NANOS_PER_MS = 1_000_000;
/** Tries at creating the stream (see ensureStream), and the pause between them. */
const STREAM_ATTEMPTS = 5;
const STREAM_RETRY_MS = 100;

/** A subject token: no dots, wildcards or spaces. */
const token = (value: string) => value.replace(/[.*>\s]/g, '_');

/**
 * Forwards committed events to a JetStream stream, in position order from its own checkpoint: at
 * least once, and with the event id as the message id, so JetStream's de-duplication makes it
 * effectively once. An aggregate's next event is published only after JetStream acknowledged the
 * previous one (different aggregates go concurrently), so a NATS restart loses or reorders nothing:
 * the batch is tried again from the checkpoint, skipping what was acknowledged. Under scale-out one
 * instance publishes at a time (it holds the publisher's lease).
 */
@Injectable()
export class JetStreamPublisher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('JetStreamPublisher');
  private readonly loop = new BackgroundLoop();
  private connection?: JetStreamConnection;
  private position = -1;
  private failures = 0;
  /** Event ids of the batch in hand that JetStream acknowledged (not sent again on a retry). */
  private readonly acknowledged = new Set<string>();
  private readonly onLost = () => {
    this.position = -1;
  };
  /** Events published since start, and the newest one's commit-to-acknowledgement lag (ms). */
  readonly stats = { published: 0, lastLagMs: 0 };

  constructor(
    @Inject(NATS_JETSTREAM_OPTIONS) private readonly options: NatsJetStreamOptions,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CHECKPOINT_STORE) private readonly checkpoints: CheckpointStore,
    @Inject(PARTITION_LEASES) private readonly leases: PartitionLeases,
    private readonly notifier: EventNotifier,
  ) {}

  private get settings() {
    return this.options.publisher!;
  }

  /** The checkpoint (and lease) name. */
  get name(): string {
    return `jetstream-publisher:${this.settings.stream}`;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.options.publisher) return;
    this.connection = await connectJetStream(this.options.servers, this.name);
    await this.ensureStream();
    this.loop.start(() => this.iterate());
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.options.publisher) return;
    await this.loop.stop();
    await this.leases.release(this.name).catch(() => undefined);
    await this.connection?.nc.drain().catch(() => undefined);
  }

  /**
   * Creates the stream, or takes it as it is when it exists. Instances starting together may all find
   * it missing: an add that fails is followed by another look, and tried again a few times while
   * the stream another instance is creating shows up.
   */
  private async ensureStream(): Promise<void> {
    const { jsm } = this.connection!;
    const { stream } = this.settings;
    for (let attempt = 1; ; attempt++) {
      if (await jsm.streams.info(stream).then(() => true, () => false)) return;
      try {
        await jsm.streams.add({
          name: stream,
          subjects: [`${this.settings.subjectPrefix ?? 'events'}.>`],
          duplicate_window: (this.settings.duplicateWindowMs ?? 120_000) * NANOS_PER_MS,
        });
        return;
      } catch (error) {
        if (attempt >= STREAM_ATTEMPTS) throw error;
        await sleep(STREAM_RETRY_MS);
      }
    }
  }

  private async iterate(): Promise<void> {
    try {
      if (!(await this.holdsLease())) {
        await this.loop.sleep(POLL_MS);
        return;
      }
      if (this.position < 0) this.position = await this.checkpoints.load(this.name);
      const seen = this.notifier.appendCount;
      const batch = await this.store.readAll({ afterPosition: this.position, limit: this.settings.batchSize ?? DEFAULT_BATCH_SIZE });
      if (batch.length === 0) {
        await this.notifier.nextAppend(POLL_MS, this.loop.signal, seen);
        return;
      }
      await this.publish(batch);
      const to = batch[batch.length - 1].position;
      await this.checkpoints.save(this.name, to);
      this.position = to;
      this.acknowledged.clear();
      this.failures = 0;
    } catch (error) {
      if (this.loop.stopped) return;
      this.failures++;
      const backoff = Math.min(100 * 2 ** this.failures, MAX_BACKOFF_MS);
      this.logger.warn(`publishing failed (${(error as Error).message}); trying again in ${backoff} ms from the checkpoint`);
      await this.loop.sleep(backoff);
    }
  }

  private async holdsLease(): Promise<boolean> {
    try {
      await this.leases.join(this.onLost);
      return await this.leases.tryAcquire(this.name);
    } catch {
      return false;
    }
  }

  /** Each aggregate's events one after the other; the aggregates concurrently. */
  private async publish(batch: StoredEvent[]): Promise<void> {
    const byAggregate = new Map<string, StoredEvent[]>();
    for (const event of batch) {
      const key = `${event.aggregateType}\u0000${event.aggregateId}`;
      const list = byAggregate.get(key);
      if (list) list.push(event);
      else byAggregate.set(key, [event]);
    }
    await Promise.all(
      [...byAggregate.values()].map(async (events) => {
        for (const event of events) await this.publishOne(event);
      }),
    );
  }

  private async publishOne(event: StoredEvent): Promise<void> {
    const { eventId } = event.metadata;
    if (this.acknowledged.has(eventId)) return;
    const prefix = this.settings.subjectPrefix ?? 'events';
    const subject = `${prefix}.${token(event.aggregateType)}.${token(event.type)}`;
    const body = JSON.stringify({
      eventId,
      aggregateType: event.aggregateType,
      aggregateId: event.aggregateId,
      sequence: event.sequence,
      position: event.position,
      type: event.type,
      payload: event.payload,
      metadata: event.metadata,
      occurredAt: event.occurredAt.toISOString(),
    });
    await this.connection!.js.publish(subject, body, { msgID: eventId });
    this.acknowledged.add(eventId);
    this.stats.published++;
    this.stats.lastLagMs = Date.now() - event.occurredAt.getTime();
  }
}
