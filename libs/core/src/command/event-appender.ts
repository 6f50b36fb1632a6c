import { Inject, Injectable } from '@nestjs/common';
import type { AggregateDefinition } from '../model/aggregate-definition.js';
import { EventNotifier } from '../runtime/event-notifier.js';
import { Tracing } from '../runtime/tracing.js';
import { Snapshotter } from '../snapshot/snapshotter.js';
import type { StreamId } from '../model/event-envelope.js';
import { EVENT_STORE, type AppendResult, type EventStore } from '../store/event-store.js';
import type { LoadedAggregate } from './aggregate-loader.js';
import { AggregateLoader } from './aggregate-loader.js';
import { toNewEvent, type EventMetadataInput } from './new-event.js';

export interface DecidedAppend {
  aggregate: AggregateDefinition;
  stream: StreamId;
  /** The state the events were decided on; its sequence is the append's expectation. */
  loaded: LoadedAggregate;
  /** Event instances, in order. */
  events: readonly object[];
  /** Stamped on every event; an `eventId` given here is used for the first (single) event only. */
  metadata: EventMetadataInput;
  occurredAt: Date;
  /** Recorded with the events, so a repeat is refused (DuplicateCommandError). */
  commandId?: string;
  /** What the command was, recorded with `commandId` (see AppendRequest). */
  commandFingerprint?: string;
  /** State the handler handed back for a snapshot (client-driven snapshots). */
  snapshotState?: unknown;
}

export interface AppendedAggregate {
  appended: AppendResult;
  after: LoadedAggregate;
}

/**
 * The one append path of commands, facts and process managers: append with the sequence guard,
 * then advance the cached state, wake subscribers and save a snapshot when due. Store errors
 * (ConcurrencyError, DuplicateCommandError, DuplicateExternalIdError) reach the caller untouched:
 * each caller decides how to retry. Callers hold the aggregate's lane.
 */
@Injectable()
export class EventAppender {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly loader: AggregateLoader,
    private readonly snapshotter: Snapshotter,
    private readonly notifier: EventNotifier,
    private readonly tracing: Tracing,
  ) {}

  append(request: DecidedAppend): Promise<AppendedAggregate> {
    const { stream, loaded } = request;
    const attributes = { 'es.aggregate.type': stream.aggregateType, 'es.aggregate.id': stream.aggregateId, 'es.sequence': loaded.sequence, 'es.events.count': request.events.length };
    return this.tracing.span('append', { kind: 'producer', attributes }, () => this.appendInSpan(request));
  }

  private async appendInSpan(request: DecidedAppend): Promise<AppendedAggregate> {
    const { aggregate, stream, loaded, occurredAt } = request;
    // The events carry this span's context: their deliveries are its children, however much later they run.
    const metadata = { ...request.metadata };
    this.tracing.inject(metadata);
    const events = request.events.map((event, index) => toNewEvent(event, index === 0 ? metadata : { ...metadata, eventId: undefined }, occurredAt));
    const appended = await this.store.append({ stream, expectedSequence: loaded.sequence, events, commandId: request.commandId, commandFingerprint: request.commandFingerprint });
    const after = this.loader.advance(aggregate, stream, loaded, events, appended.sequence);
    this.notifier.appended(appended.events);
    await this.snapshotter.afterCommit(
      aggregate,
      stream,
      loaded.sequence,
      appended.sequence,
      events.map((event) => event.type),
      after.state,
      request.snapshotState,
    );
    return { appended, after };
  }
}
