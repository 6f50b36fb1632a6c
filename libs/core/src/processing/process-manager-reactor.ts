import { Logger } from '@nestjs/common';
import type { AggregateLoader } from '../command/aggregate-loader.js';
import type { EventAppender } from '../command/event-appender.js';
import { eventTypeName } from '../decorators/event-type.decorator.js';
import type { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import type { ProcessDefinition, SubscriberDefinition } from '../discovery/subscriber-definition.js';
import { instanceKeyOf, routingKey } from '../discovery/subscriber-partitions.js';
import type { AggregateDispatcher } from '../scheduling/index.js';
import type { StoredEvent, StreamId } from '../model/event-envelope.js';
import type { EventStore } from '../store/event-store.js';
import { ConcurrencyError, DuplicateCommandError } from '../store/store-errors.js';
import type { ProcessTimer, TimerStore } from '../store/timer-store.js';
import type { Tracing } from '../runtime/tracing.js';
import { deliverySpan } from './delivery-span.js';
import { deterministicId } from './deterministic-id.js';
import { toEmissions, type CommandRejection, type ProcessReaction } from './emissions.js';
import { MAX_COMPENSATION_DEPTH, type EmissionSender } from './emission-sender.js';
import { asStored, processContextOf, type ProcessStepFacts } from './process-context-of.js';
import { replay } from '../command/aggregate-replayer.js';
import type { Reactor } from './reactor.js';
import { stateAsOf } from './state-as-of.js';
import type { ProcessContext } from './subscriber-context.js';

export interface ProcessManagerParts {
  registry: EventSourcingRegistry;
  lanes: AggregateDispatcher;
  store: EventStore;
  loader: AggregateLoader;
  timers: TimerStore;
  sender: EmissionSender;
  appender: EventAppender;
  tracing: Tracing;
}

/** One thing a process instance reacts to: an event, a timer or a refused command. */
interface Step extends Omit<ProcessStepFacts, 'sequence'> {
  /** Unique per trigger: the step is recorded under an id derived from it, so it runs once. */
  triggerId: string;
  canStart: boolean;
  react(context: ProcessContext): unknown;
}

/**
 * Process managers: event-sourced coordinators, one instance per key. Each step (event, timer,
 * rejection) appends the manager's own events under a command id derived from its trigger; a
 * redelivered trigger finds that record, recomputes the same reaction from the state the step first
 * saw (and the aggregates as of the trigger), and re-sends its commands (deterministic ids make that
 * harmless).
 */
export class ProcessManagerReactor implements Reactor {
  readonly inTransaction = false;
  private readonly logger: Logger;
  private readonly process: ProcessDefinition;

  constructor(
    private readonly subscriber: SubscriberDefinition,
    private readonly parts: ProcessManagerParts,
  ) {
    this.process = subscriber.process!;
    this.logger = new Logger(`ProcessManager:${subscriber.name}`);
  }

  keyOf(event: StoredEvent): string {
    return routingKey(this.subscriber, event);
  }

  keyOfHeld(): undefined {
    return undefined;
  }

  react(event: StoredEvent): Promise<void> {
    const handler = this.subscriber.handlers.get(event.type)!;
    return deliverySpan(this.parts.tracing, this.subscriber, event, async () => {
      const key = instanceKeyOf(this.subscriber, event);
      if (key === undefined) throw new Error(`${this.subscriber.classRef.name} found no instance key (a non-empty string) in ${event.type} at position ${event.position}`);
      await this.run({
        key,
        correlationId: event.metadata.correlationId,
        triggerId: `event:${event.metadata.eventId}`,
        canStart: this.process.startsOn.has(event.type),
        now: event.occurredAt,
        event,
        stateOf: (aggregateType, aggregateId) => stateAsOf(this.parts.registry, this.parts.store, aggregateType, aggregateId, event.position),
        react: (context) => handler(event.payload, context),
      });
    });
  }

  /** Runs a due timer in the instance's lane; the timer poller marks it fired afterwards. */
  fire(timer: ProcessTimer): Promise<void> {
    const handler = this.process.timeouts.get(timer.name);
    if (!handler) throw new Error(`${this.subscriber.classRef.name} has no @OnTimeout('${timer.name}') method`);
    return this.parts.lanes.dispatch(this.subscriber.name, timer.correlationId, () =>
      this.run({
        key: timer.correlationId,
        correlationId: timer.correlationId,
        triggerId: `timer:${timer.id}`,
        canStart: false,
        now: timer.dueAt,
        react: (context) => handler(timer.payload, context),
      }),
    );
  }

  /**
   * Decides on the cached state without a read, as a command does: the append's sequence guard
   * catches a cache another instance made stale. A step delivered again is found by its record,
   * looked up only when the append says the step is recorded already, or when deciding failed.
   */
  private async run(step: Step, depth = 0): Promise<void> {
    const { aggregate } = this.process;
    const stream: StreamId = { aggregateType: this.subscriber.name, aggregateId: step.key };
    const stepId = deterministicId(this.subscriber.name, step.triggerId);
    let verified = false;
    for (;;) {
      const cached = verified ? undefined : this.parts.loader.cached(stream);
      const loaded = cached ?? (await this.parts.loader.load(aggregate, stream));
      verified = cached === undefined;
      if (loaded.sequence === 0 && !step.canStart) {
        // An instance this process has not seen start may have started elsewhere.
        if (verified) return;
        verified = true;
        continue;
      }
      let reaction: ProcessReaction;
      try {
        reaction = await this.decide(step, loaded.state, loaded.sequence);
      } catch (error) {
        // A step delivered again is decided on the state it first saw, where it may not fail.
        if (await this.replayRecorded(step, stream, stepId, depth)) return;
        // A failure on the cached state is decided again only if the store has moved past it.
        if (verified || (await this.parts.loader.catchUp(aggregate, stream)).missed.length === 0) throw error;
        verified = true;
        continue;
      }
      const events = reaction.events ?? [];
      for (const event of events) {
        if (!aggregate.appliers.has(eventTypeName(event))) {
          throw new Error(`${this.subscriber.classRef.name} returned ${event.constructor.name}, which it has no @Apply for`);
        }
      }
      try {
        await this.parts.appender.append({
          aggregate,
          stream,
          loaded,
          events,
          metadata: { commandId: stepId, correlationId: step.correlationId, causationId: step.triggerId.slice(step.triggerId.indexOf(':') + 1) },
          occurredAt: step.now,
          commandId: stepId,
        });
      } catch (error) {
        if (error instanceof DuplicateCommandError && (await this.replayRecorded(step, stream, stepId, depth))) return;
        if (!(error instanceof ConcurrencyError) && !(error instanceof DuplicateCommandError)) throw error;
        this.parts.loader.forget(stream);
        verified = true;
        continue;
      }
      await this.sideEffects(step, stepId, reaction, depth);
      return;
    }
  }

  /** A step recorded already (delivered again): its reaction from the state it first saw, and its side effects again. */
  private async replayRecorded(step: Step, stream: StreamId, stepId: string, depth: number): Promise<boolean> {
    const record = await this.parts.store.findCommand(stream, stepId);
    if (!record) return false;
    const sequence = record.sequence - record.events.length;
    const before = await this.parts.loader.loadAt(this.process.aggregate, stream, sequence);
    await this.sideEffects(step, stepId, await this.decide(step, before.state, sequence), depth);
    return true;
  }

  private async decide(step: Step, state: unknown, sequence: number): Promise<ProcessReaction> {
    const { aggregate } = this.process;
    const applyOwn = (from: unknown, events: object[]) => replay(aggregate, from, events.map((event) => asStored(event, eventTypeName)));
    const context = processContextOf(this.subscriber.classRef.name, state, { ...step, sequence }, applyOwn);
    return ((await step.react(context)) ?? {}) as ProcessReaction;
  }

  private async sideEffects(step: Step, stepId: string, reaction: ProcessReaction, depth: number): Promise<void> {
    const owner = this.subscriber.name;
    const cancel = reaction.cancel ?? [];
    const schedule = (reaction.schedule ?? []).map((timer) => ({
      id: deterministicId(owner, step.key, timer.name, stepId),
      name: timer.name,
      dueAt: new Date(step.now.getTime() + timer.afterMs),
      payload: timer.payload ?? null,
    }));
    // The timers and the commands side by side: both follow the step's record, neither needs the
    // other, and a step that fails in either is redelivered and does both again (idempotent ids).
    const [changed, sent] = await Promise.allSettled([
      cancel.length > 0 || schedule.length > 0 ? this.parts.timers.change(owner, step.key, cancel, schedule) : undefined,
      this.parts.sender.send(toEmissions(reaction.emit), {
        idBase: [owner, stepId],
        correlationId: step.correlationId,
        causationId: step.event?.metadata.eventId ?? stepId,
        event: step.event,
      }),
    ]);
    if (changed.status === 'rejected') throw changed.reason;
    if (sent.status === 'rejected') throw sent.reason;
    for (const rejection of sent.value) await this.compensate(step, rejection, depth);
  }

  private async compensate(step: Step, rejection: CommandRejection, depth: number): Promise<void> {
    const onRejected = this.subscriber.onRejected;
    if (!onRejected || depth >= MAX_COMPENSATION_DEPTH) {
      this.logger.warn(`${rejection.commandType} was refused (${rejection.code}: ${rejection.message}) and nothing compensates it`);
      return;
    }
    await this.run({ ...step, triggerId: `rejected:${rejection.commandId}`, canStart: false, react: (context) => onRejected(rejection, context) }, depth + 1);
  }
}
