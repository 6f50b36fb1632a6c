import { Logger } from '@nestjs/common';
import type { AggregateLoader, LoadedAggregate } from '../command/aggregate-loader.js';
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
import type { KeyFailure, Reactor } from './reactor.js';
import { stateAsOf } from './state-as-of.js';
import { changesTimers, combineTimerChanges, type TimerChange } from './timer-change.js';
import type { ProcessContext } from './subscriber-context.js';
import { DeclinedStarts } from './declined-starts.js';

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

/** A step decided ahead of its record. */
interface DecidedStep {
  step: Step;
  stepId: string;
  reaction: ProcessReaction;
  /** Whether it sends commands or facts. */
  sends: boolean;
  /** Appends its record on the state it was decided on. */
  record(): Promise<unknown>;
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
  /** Instances whose starting event this process decided without starting them (read empty, recorded nothing). */
  private readonly declined = new DeclinedStarts();

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
    return deliverySpan(this.parts.tracing, this.subscriber, event, () => this.run(this.eventStep(event)));
  }

  /**
   * An instance's events of one delivery: the steps that follow one another with no command between
   * them are decided one after another on the cached state and recorded in the same turn of the event
   * loop, so that the store's group commit writes them in one transaction; their timer changes then go
   * in one call. Whatever is out of the ordinary (no cached state, a step that fails, a refused append)
   * goes through `react`, which handles it.
   */
  async reactInOrder(events: StoredEvent[]): Promise<KeyFailure | undefined> {
    for (let index = 0; index < events.length; ) {
      try {
        index += await this.reactFrom(events, index);
      } catch (error) {
        return { index, error };
      }
    }
    return undefined;
  }

  /** Handles events from `start` on (at least one); how many. */
  private async reactFrom(events: StoredEvent[], start: number): Promise<number> {
    const group = start < events.length - 1 ? await this.decideInTurn(events, start) : [];
    const recorded = group.length > 0 ? await this.recordTogether(group) : 0;
    if (recorded === 0) {
      await this.react(events[start]);
      return 1;
    }
    const steps = group.slice(0, recorded);
    const last = steps[steps.length - 1];
    const timers = combineTimerChanges(steps.map(({ step, stepId, reaction }) => this.timerChange(step, stepId, reaction)));
    await this.sideEffects(last.step, last.stepId, last.reaction, 0, timers);
    return recorded;
  }

  /**
   * The steps of the events from `start` on, each decided in its delivery's span on the cached state
   * the one before leaves, up to the first that sends anything: its rejections are compensated before
   * the next step is decided. Stops before an event of another instance, or one that cannot be decided.
   */
  private async decideInTurn(events: StoredEvent[], start: number): Promise<DecidedStep[]> {
    const group: DecidedStep[] = [];
    const key = instanceKeyOf(this.subscriber, events[start]);
    let loaded = key === undefined ? undefined : this.parts.loader.cached(this.streamOf(key));
    for (let index = start; index < events.length && loaded; index++) {
      const event = events[index];
      if (instanceKeyOf(this.subscriber, event) !== key) break;
      const step = this.eventStep(event, key);
      if (loaded.sequence === 0 && !step.canStart) break;
      const decided = await this.decideAhead(step, event, loaded);
      if (!decided) break;
      group.push(decided);
      // Nothing is decided after a step that sends, nor a state worked out past the last event.
      if (decided.sends || index === events.length - 1) break;
      const own = decided.reaction.events ?? [];
      loaded = { state: this.applyOwn(structuredClone(loaded.state), own), sequence: loaded.sequence + own.length };
    }
    return group;
  }

  /** A step decided ahead of its record, which is bound to its delivery's span; undefined when it is not for the group. */
  private decideAhead(step: Step, event: StoredEvent, loaded: LoadedAggregate): Promise<DecidedStep | undefined> {
    const stepId = deterministicId(this.subscriber.name, step.triggerId);
    const decided = deliverySpan(this.parts.tracing, this.subscriber, event, async (): Promise<DecidedStep | undefined> => {
      const reaction = await this.decide(step, loaded.state, loaded.sequence);
      if (this.unappliedEvent(reaction)) return undefined;
      const sends = toEmissions(reaction.emit).length > 0;
      return { step, stepId, reaction, sends, record: this.parts.tracing.bind(() => this.appendStep(step, stepId, reaction, loaded)) };
    });
    return decided.catch(() => undefined);
  }

  /** Appends the steps' records in one turn; how many of the first committed (the rest go one by one). */
  private async recordTogether(group: DecidedStep[]): Promise<number> {
    const outcomes = await Promise.allSettled(group.map((decided) => decided.record()));
    const recorded = outcomes.findIndex((outcome) => outcome.status === 'rejected');
    if (recorded === -1) return group.length;
    this.parts.loader.forget(this.streamOf(group[0].step.key));
    return recorded;
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

  private eventStep(event: StoredEvent, key = instanceKeyOf(this.subscriber, event)): Step {
    if (key === undefined) throw new Error(`${this.subscriber.classRef.name} found no instance key (a non-empty string) in ${event.type} at position ${event.position}`);
    const handler = this.subscriber.handlers.get(event.type)!;
    return {
      key,
      correlationId: event.metadata.correlationId,
      triggerId: `event:${event.metadata.eventId}`,
      canStart: this.process.startsOn.has(event.type),
      now: event.occurredAt,
      event,
      stateOf: (aggregateType, aggregateId) => stateAsOf(this.parts.registry, this.parts.store, aggregateType, aggregateId, event.position),
      react: (context) => handler(event.payload, context),
    };
  }

  private streamOf(key: string): StreamId {
    return { aggregateType: this.subscriber.name, aggregateId: key };
  }

  /**
   * Decides on the cached state without a read, as a command does: the append's sequence guard
   * catches a cache another instance made stale. A step delivered again is found by its record,
   * looked up only when the append says the step is recorded already, or when deciding failed.
   */
  private async run(step: Step, depth = 0): Promise<void> {
    const { aggregate } = this.process;
    const stream = this.streamOf(step.key);
    const stepId = deterministicId(this.subscriber.name, step.triggerId);
    let verified = false;
    for (;;) {
      const cached = verified ? undefined : this.parts.loader.cached(stream);
      const loaded = cached ?? (await this.parts.loader.load(aggregate, stream));
      verified = cached === undefined;
      if (loaded.sequence === 0 && !step.canStart) {
        // An instance this process has not seen start may have started elsewhere, unless this process
        // saw its starting event decline to start it: every instance decides that event the same way.
        if (verified || this.declined.has(step.key)) return;
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
      const unapplied = this.unappliedEvent(reaction);
      if (unapplied) throw new Error(`${this.subscriber.classRef.name} returned ${unapplied.constructor.name}, which it has no @Apply for`);
      try {
        await this.appendStep(step, stepId, reaction, loaded);
      } catch (error) {
        if (error instanceof DuplicateCommandError && (await this.replayRecorded(step, stream, stepId, depth))) return;
        if (!(error instanceof ConcurrencyError) && !(error instanceof DuplicateCommandError)) throw error;
        this.parts.loader.forget(stream);
        verified = true;
        continue;
      }
      await this.sideEffects(step, stepId, reaction, depth);
      if (verified && step.canStart && loaded.sequence === 0) this.declined.note(step.key, (reaction.events ?? []).length === 0);
      return;
    }
  }

  /** Forgets the declined starts: the subscription starts again from its stored checkpoint, and may not see every event from here on. */
  restart(): void {
    this.declined.clear();
  }

  /** The step's events, recorded under its id; refused (ConcurrencyError, DuplicateCommandError) as any append. */
  private appendStep(step: Step, stepId: string, reaction: ProcessReaction, loaded: LoadedAggregate): Promise<unknown> {
    return this.parts.appender.append({
      aggregate: this.process.aggregate,
      stream: this.streamOf(step.key),
      loaded,
      events: reaction.events ?? [],
      metadata: { commandId: stepId, correlationId: step.correlationId, causationId: step.triggerId.slice(step.triggerId.indexOf(':') + 1) },
      occurredAt: step.now,
      commandId: stepId,
    });
  }

  /** An event of the reaction's own that the process manager has no `@Apply` for. */
  private unappliedEvent(reaction: ProcessReaction): object | undefined {
    return (reaction.events ?? []).find((event) => !this.process.aggregate.appliers.has(eventTypeName(event)));
  }

  private applyOwn(state: unknown, events: object[]): unknown {
    return replay(this.process.aggregate, state, events.map((event) => asStored(event, eventTypeName)));
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
    const context = processContextOf(this.subscriber.classRef.name, state, { ...step, sequence }, (from, events) => this.applyOwn(from, events));
    return ((await step.react(context)) ?? {}) as ProcessReaction;
  }

  /** The step's timers: the names it cancels and the timers it schedules, their ids from the step's. */
  private timerChange(step: Step, stepId: string, reaction: ProcessReaction): TimerChange {
    const schedule = (reaction.schedule ?? []).map((timer) => ({
      id: deterministicId(this.subscriber.name, step.key, timer.name, stepId),
      name: timer.name,
      dueAt: new Date(step.now.getTime() + timer.afterMs),
      payload: timer.payload ?? null,
    }));
    return { cancel: reaction.cancel ?? [], schedule };
  }

  private async sideEffects(step: Step, stepId: string, reaction: ProcessReaction, depth: number, timers = this.timerChange(step, stepId, reaction)): Promise<void> {
    const owner = this.subscriber.name;
    // The timers and the commands side by side: both follow the step's record, neither needs the
    // other, and a step that fails in either is redelivered and does both again (idempotent ids).
    const [changed, sent] = await Promise.allSettled([
      changesTimers(timers) ? this.parts.timers.change(owner, step.key, timers.cancel, timers.schedule) : undefined,
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
