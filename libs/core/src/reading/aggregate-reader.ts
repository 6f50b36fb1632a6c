import { Inject, Injectable } from '@nestjs/common';
import { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import type { AggregateDefinition } from '../model/aggregate-definition.js';
import { InvalidArgumentError, NotFoundError } from '../errors/index.js';
import { COMMAND_DISPATCHER } from '../config/tokens.js';
import { AggregateDispatcher } from '../scheduling/index.js';
import { MAX_SEQUENCE, type StoredEvent } from '../model/event-envelope.js';
import { EVENT_STORE, type EventStore } from '../store/event-store.js';
import { AggregateLoader } from '../command/aggregate-loader.js';
import { isSequence, validateId } from '../command/command-validation.js';

export interface AggregateSnapshotView {
  state: unknown;
  sequence: number;
}

/** Reads aggregates as the write side sees them (GET /aggregates/...). */
@Injectable()
export class AggregateReader {
  constructor(
    private readonly registry: EventSourcingRegistry,
    private readonly loader: AggregateLoader,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(COMMAND_DISPATCHER) private readonly dispatcher: AggregateDispatcher,
  ) {}

  /** Current state; runs in the aggregate's lane so it never races a command on the cached state. */
  async state(aggregateType: string, aggregateId: string): Promise<AggregateSnapshotView> {
    const aggregate = this.aggregate(aggregateType);
    const stream = { aggregateType, aggregateId: validateId('aggregate id', aggregateId) };
    const loaded = await this.dispatcher.dispatch(aggregateType, aggregateId, () => this.loader.load(aggregate, stream));
    if (loaded.sequence === 0) throw new NotFoundError(`${aggregateType}/${aggregateId} has no events`);
    return { state: loaded.state, sequence: loaded.sequence };
  }

  /** The aggregate's events after `afterSequence`, all of them (`eventPage` reads a bounded page). */
  async events(aggregateType: string, aggregateId: string, afterSequence = 0): Promise<StoredEvent[]> {
    return this.read(aggregateType, aggregateId, { afterSequence });
  }

  /** Up to `limit` events after `afterSequence`, and whether more follow. */
  async eventPage(aggregateType: string, aggregateId: string, afterSequence: number, limit: number): Promise<{ events: StoredEvent[]; more: boolean }> {
    // Sequences are dense, so a page is a sequence range; one event past it tells whether more follow
    // (capped: the column holds no sequence past MAX_SEQUENCE).
    const events = await this.read(aggregateType, aggregateId, { afterSequence, toSequence: Math.min(afterSequence + limit + 1, MAX_SEQUENCE) });
    return { events: events.slice(0, limit), more: events.length > limit };
  }

  private read(aggregateType: string, aggregateId: string, range: { afterSequence: number; toSequence?: number }): Promise<StoredEvent[]> {
    this.aggregate(aggregateType);
    if (!isSequence(range.afterSequence)) {
      throw new InvalidArgumentError(`afterSequence must be a whole number from 0 to ${MAX_SEQUENCE}, got ${range.afterSequence}`);
    }
    return this.store.readStream({ aggregateType, aggregateId: validateId('aggregate id', aggregateId) }, range);
  }

  aggregate(aggregateType: string): AggregateDefinition {
    const aggregate = this.registry.aggregate(aggregateType);
    if (!aggregate) {
      throw new NotFoundError(`unknown aggregate type '${aggregateType}'; known: ${[...this.registry.aggregates.keys()].join(', ')}`);
    }
    return aggregate;
  }
}
