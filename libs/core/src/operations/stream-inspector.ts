import { Inject, Injectable } from '@nestjs/common';
import { validateId } from '../command/command-validation.js';
import { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import { InvalidArgumentError, NotFoundError } from '../errors/index.js';
import { MAX_SEQUENCE, type StoredEvent } from '../model/event-envelope.js';
import { AggregateReader } from '../reading/aggregate-reader.js';
import { EVENT_STORE_ADAPTER, type EventStore } from '../store/event-store.js';

/** One event of a stream twice: as the store holds it, and as this code reads it (names and upcasters applied). */
export interface InspectedEvent {
  stored: StoredEvent;
  read: StoredEvent;
  /** The read differs from the stored one (a former name or an older version). */
  upcast: boolean;
}

export interface InspectedPage {
  aggregateType: string;
  aggregateId: string;
  events: InspectedEvent[];
  /** The `after` of the next page; absent on the last one. */
  nextAfter?: number;
}

export interface InspectedState {
  aggregateType: string;
  aggregateId: string;
  sequence: number;
  state: unknown;
  /** The aggregate declares a view: its state and events are readable over the aggregate routes too. */
  hasView: boolean;
}

/**
 * An operator's look into one aggregate's stream, whatever its view would show a reader: the events
 * as stored and as upcast for this code, and the current state through the aggregate reader.
 */
@Injectable()
export class StreamInspector {
  constructor(
    private readonly registry: EventSourcingRegistry,
    private readonly reader: AggregateReader,
    @Inject(EVENT_STORE_ADAPTER) private readonly stored: EventStore,
  ) {}

  /** The aggregate types, and which declare a view. */
  aggregateTypes(): Array<{ type: string; hasView: boolean }> {
    return [...this.registry.aggregates.values()].map((aggregate) => ({ type: aggregate.type, hasView: aggregate.view !== undefined }));
  }

  /** Up to `limit` events after sequence `after`; an aggregate without events is not found. */
  async page(aggregateType: string, aggregateId: string, after: number, limit: number): Promise<InspectedPage> {
    this.reader.aggregate(aggregateType);
    const stream = { aggregateType, aggregateId: validateId('aggregate id', aggregateId) };
    if (!Number.isInteger(after) || after < 0 || after > MAX_SEQUENCE) throw new InvalidArgumentError(`after must be a whole number from 0 to ${MAX_SEQUENCE}, got ${after}`);
    const page = await this.stored.readStream(stream, { afterSequence: after, toSequence: Math.min(after + limit + 1, MAX_SEQUENCE) });
    if (page.length === 0 && (await this.stored.streamSequence(stream)) === 0) throw new NotFoundError(`${aggregateType}/${aggregateId} has no events`);
    const shown = page.slice(0, limit);
    const read = this.registry.eventTypes.upcast(shown);
    const events = shown.map((event, index) => ({ stored: event, read: read[index], upcast: read[index] !== event }));
    return { aggregateType, aggregateId, events, ...(page.length > limit ? { nextAfter: shown.at(-1)!.sequence } : {}) };
  }

  async state(aggregateType: string, aggregateId: string): Promise<InspectedState> {
    const { state, sequence } = await this.reader.state(aggregateType, aggregateId);
    return { aggregateType, aggregateId, sequence, state, hasView: this.reader.aggregate(aggregateType).view !== undefined };
  }
}
