import { Module, type DynamicModule, type INestApplicationContext, type Provider, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { toNewEvent } from '../command/new-event.js';
import { SUBSCRIBER_METADATA } from '../decorators/constants.js';
import type { SubscriberMetadata } from '../decorators/subscriber-types.js';
import { EventSourcingModule } from '../module/event-sourcing.module.js';
import { EventNotifier } from '../runtime/event-notifier.js';
import { CHECKPOINT_STORE, type CheckpointStore } from '../store/checkpoint-store.js';
import { DEAD_LETTER_STORE, type DeadLetterStore } from '../store/dead-letter-store.js';
import type { StoredEvent, StreamId } from '../model/event-envelope.js';
import { EVENT_STORE, type EventStore } from '../store/event-store.js';
import type { EventSourcingAdapter } from '../adapter/event-sourcing-adapter.js';
import { inMemory } from '../adapter/in-memory-adapter.js';

export interface ProjectorFixtureOptions {
  projector: Type;
  /** What the projector needs (its queries, say), and the aggregates or process managers that apply its events. */
  providers?: Provider[];
  imports?: Array<Type | DynamicModule>;
  /**
   * The adapter the projector runs on. Default `inMemory()` (projectors get no transaction); give the
   * one the application uses (`typeorm({type: 'sqlite', database: ':memory:'})`, or a PostgreSQL
   * schema of its own) for projectors that write SQL with the transaction's handle.
   */
  adapter?: EventSourcingAdapter<any>;
  /** How long `given` waits for the projector before failing. Default 10,000 ms. */
  timeoutMs?: number;
}

/**
 * Given events, then the read model: boots the framework with just this projector running, appends
 * the events to the store and waits until the projector checkpointed past them. A projection that
 * fails (dead-lettered) fails `given` with its reason. Read the model through `get(YourQuery)`.
 */
export class ProjectorFixture {
  private readonly name: string;

  private constructor(
    private readonly app: INestApplicationContext,
    projector: Type,
    private readonly timeoutMs: number,
  ) {
    this.name = (Reflect.getMetadata(SUBSCRIBER_METADATA, projector) as SubscriberMetadata).name;
  }

  static async create(options: ProjectorFixtureOptions): Promise<ProjectorFixture> {
    const metadata = Reflect.getMetadata(SUBSCRIBER_METADATA, options.projector) as SubscriberMetadata | undefined;
    if (metadata?.kind !== 'projector') throw new Error(`${options.projector.name} is not decorated with @Projector`);
    const processing = { subscribers: [metadata.name], pollIntervalMs: 10 };
    const framework = EventSourcingModule.forRoot({ adapter: options.adapter ?? inMemory(), processing });
    class ProjectorFixtureModule {}
    Module({ imports: [framework, ...(options.imports ?? [])], providers: [options.projector, ...(options.providers ?? [])] })(ProjectorFixtureModule);
    const app = await NestFactory.createApplicationContext(ProjectorFixtureModule, { logger: false, abortOnError: false });
    await app.init();
    return new ProjectorFixture(app, options.projector, options.timeoutMs ?? 10_000);
  }

  /** Appends `events` to the stream (`'type/id'` or a StreamId) and waits until they are projected. */
  async given(stream: string | StreamId, ...events: object[]): Promise<StoredEvent[]> {
    const target = typeof stream === 'string' ? parseStream(stream) : stream;
    const store = this.app.get<EventStore>(EVENT_STORE);
    const now = new Date();
    const appended = await store.append({
      stream: target,
      expectedSequence: await store.streamSequence(target),
      events: events.map((event) => toNewEvent(event, { commandId: null, correlationId: 'test-correlation', causationId: null }, now)),
    });
    this.app.get(EventNotifier).appended(appended.events);
    if (appended.events.length > 0) await this.projectedTo(appended.events[appended.events.length - 1].position);
    return appended.events;
  }

  get<T>(token: Type<T> | string | symbol): T {
    return this.app.get<T>(token as Type<T>);
  }

  close(): Promise<void> {
    return this.app.close();
  }

  private async projectedTo(position: number): Promise<void> {
    const checkpoints = this.app.get<CheckpointStore>(CHECKPOINT_STORE);
    const deadline = Date.now() + this.timeoutMs;
    // A held event (failed, being retried) is not projected yet: it ends projected or dead-lettered.
    const behind = async () =>
      (await checkpoints.load(this.name)) < position || (await checkpoints.loadHeld(this.name)).some((held) => held.position <= position);
    while (await behind()) {
      if (Date.now() > deadline) throw new Error(`projector '${this.name}' did not reach position ${position} within ${this.timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const failed = await this.app.get<DeadLetterStore>(DEAD_LETTER_STORE).list({ status: 'pending', subscriber: this.name });
    if (failed.length > 0) throw new Error(`projector '${this.name}' failed on ${failed.map((letter) => `${letter.messageType}: ${letter.reason}`).join('; ')}`);
  }
}

function parseStream(text: string): StreamId {
  const slash = text.indexOf('/');
  if (slash <= 0 || slash === text.length - 1) throw new Error(`a stream is 'aggregateType/aggregateId', got '${text}'`);
  return { aggregateType: text.slice(0, slash), aggregateId: text.slice(slash + 1) };
}
