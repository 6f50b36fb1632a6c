import { Inject, Injectable } from '@nestjs/common';
import { AggregateLoader } from '../command/aggregate-loader.js';
import { eventTypeName } from '../decorators/event-type.decorator.js';
import { EventAppender } from '../command/event-appender.js';
import { validateId } from '../command/command-validation.js';
import { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import { InvalidArgumentError, NotFoundError } from '../errors/index.js';
import { COMMAND_DISPATCHER } from '../config/tokens.js';
import { AdmissionGate } from '../runtime/admission-gate.js';
import { Tracing } from '../runtime/tracing.js';
import type { AggregateDispatcher } from '../scheduling/index.js';
import type { StoredEvent } from '../model/event-envelope.js';
import { EVENT_STORE, type CapableEventStore } from '../store/event-store.js';
import { ConcurrencyError, DuplicateExternalIdError } from '../store/store-errors.js';
import { deterministicId } from './deterministic-id.js';
import type { FactEmission } from './emissions.js';

/**
 * Appends facts: through the target aggregate's appliers, never its command handlers (the
 * aggregate cannot refuse what already happened), once per external id. Runs in the aggregate's
 * command lane, so a fact and a command never race on the cached state.
 */
@Injectable()
export class FactAppender {
  constructor(
    private readonly registry: EventSourcingRegistry,
    private readonly loader: AggregateLoader,
    private readonly appender: EventAppender,
    private readonly admission: AdmissionGate,
    @Inject(EVENT_STORE) private readonly store: CapableEventStore,
    @Inject(COMMAND_DISPATCHER) private readonly dispatcher: AggregateDispatcher,
    private readonly tracing: Tracing,
  ) {}

  append(fact: FactEmission, cause: { correlationId: string; causationId: string }): Promise<StoredEvent> {
    const aggregate = this.registry.aggregate(fact.aggregateType);
    if (!aggregate) throw new NotFoundError(`fact for unknown aggregate type '${fact.aggregateType}'`);
    const type = eventTypeName(fact.event);
    if (!aggregate.appliers.has(type)) {
      throw new InvalidArgumentError(`aggregate '${aggregate.type}' has no @Apply for fact ${type}`);
    }
    const stream = { aggregateType: aggregate.type, aggregateId: validateId('fact aggregateId', fact.aggregateId) };
    const externalId = validateId('fact externalId', fact.externalId);
    return this.admission.run(
      () =>
        // Bound to the emitting delivery's span, which the lane may not run in otherwise.
        this.dispatcher.dispatch(stream.aggregateType, stream.aggregateId, this.tracing.bind(async () => {
          for (;;) {
            const existing = await this.store.findByExternalId(stream, externalId);
            if (existing) return existing;
            const loaded = await this.loader.load(aggregate, stream);
            try {
              const { appended } = await this.appender.append({
                aggregate,
                stream,
                loaded,
                events: [fact.event],
                metadata: {
                  eventId: deterministicId('fact', stream.aggregateType, stream.aggregateId, externalId),
                  commandId: null,
                  correlationId: cause.correlationId,
                  causationId: cause.causationId,
                  externalId,
                },
                occurredAt: new Date(),
              });
              return appended.events[0];
            } catch (error) {
              // Lost a race (another instance appended, or the same fact landed): look again.
              if (!(error instanceof ConcurrencyError) && !(error instanceof DuplicateExternalIdError)) throw error;
              this.loader.forget(stream);
            }
          }
        })),
      true,
    );
  }
}
