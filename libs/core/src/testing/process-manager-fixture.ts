import type { Type } from '@nestjs/common';
import { APPLIERS_METADATA, REJECTION_HANDLER_METADATA, SUBSCRIBER_METADATA, TIMEOUT_HANDLERS_METADATA } from '../decorators/constants.js';
import type { ApplierMetadata } from '../decorators/decorator-types.js';
import { eventTypeName } from '../decorators/event-type.decorator.js';
import type { ProcessManagerOptions, SubscriberMetadata, TimeoutHandlerMetadata } from '../decorators/subscriber-types.js';
import type { CommandRejection, ProcessReaction, TimerRequest } from '../processing/emissions.js';
import { asStored, processContextOf } from '../processing/process-context-of.js';
import type { ProcessContext } from '../processing/subscriber-context.js';
import type { EventMetadata, StoredEvent } from '../model/event-envelope.js';
import { emittedOutcome, type EmittedOutcome } from './emitted-outcome.js';
import { handlerOf } from './saga-fixture.js';
import { storedEvent } from './stored-event-of.js';

type Envelope = Partial<Omit<StoredEvent, 'metadata'>> & { metadata?: Partial<EventMetadata> };

export interface ProcessOutcome<S> extends EmittedOutcome {
  /** False when the event does not start an instance and none exists yet: nothing ran. */
  ran: boolean;
  /** The process manager's own events from this step. */
  events: object[];
  scheduled: TimerRequest[];
  cancelled: string[];
  /** The state after this step's events. */
  state: S;
}

interface PendingTimer extends TimerRequest {
  dueAt: number;
}

/**
 * Given its own past events, when an event, a timer or a refused command, then its events, the
 * commands it sends and the timers it schedules or cancels: a process manager without a database.
 * Steps build on each other, as one instance's history does; time is a clock you move with `advance`.
 * The instance's key is also the correlation id of the events you give (unless their envelope says
 * otherwise); `givenAggregate` sets what `ctx.stateOf` answers.
 */
export class ProcessManagerFixture<S = any, T extends object = object> {
  private state: S;
  private sequence = 0;
  private clock = new Date('2026-01-01T00:00:00Z').getTime();
  private readonly timers = new Map<string, PendingTimer>();
  private readonly startsOn: Set<string>;
  private readonly aggregates = new Map<string, unknown>();

  private constructor(
    readonly process: T,
    options: ProcessManagerOptions,
    /** The instance's key, and the correlation id of the events given without one. */
    readonly key: string,
  ) {
    this.startsOn = new Set(options.startsOn.map((event) => eventTypeName(event)));
    this.state = (process as { initialState(): S }).initialState();
  }

  static for<S = any, T extends object = object>(classRef: Type<T>, instance: T = new classRef(), key = 'test-correlation'): ProcessManagerFixture<S, T> {
    const metadata = Reflect.getMetadata(SUBSCRIBER_METADATA, classRef) as SubscriberMetadata | undefined;
    if (metadata?.kind !== 'process-manager') throw new Error(`${classRef.name} is not decorated with @ProcessManager`);
    return new ProcessManagerFixture<S, T>(instance, metadata.options as ProcessManagerOptions, key);
  }

  /** Its own past events (what earlier steps appended). */
  given(...events: object[]): this {
    this.state = this.apply(this.state, events);
    this.sequence += events.length;
    return this;
  }

  /** The state `ctx.stateOf(aggregateType, aggregateId)` gives the steps that follow. */
  givenAggregate(aggregateType: string, aggregateId: string, state: unknown): this {
    this.aggregates.set(JSON.stringify([aggregateType, aggregateId]), structuredClone(state));
    return this;
  }

  get currentState(): S {
    return structuredClone(this.state);
  }

  /** Timers scheduled and neither fired nor cancelled, soonest first. */
  get pendingTimers(): Array<TimerRequest & { dueAt: Date }> {
    return [...this.timers.values()].sort((a, b) => a.dueAt - b.dueAt).map((timer) => ({ ...timer, dueAt: new Date(timer.dueAt) }));
  }

  async when(event: object, envelope: Envelope = {}): Promise<ProcessOutcome<S>> {
    const stored = storedEvent(event, { occurredAt: new Date(this.clock), ...envelope, metadata: { correlationId: this.key, ...envelope.metadata } });
    if (this.sequence === 0 && !this.startsOn.has(stored.type)) return this.outcome(false, {});
    const method = handlerOf(this.process, stored.type);
    return this.step((context) => method.call(this.process, stored.payload, context), stored);
  }

  /** Moves the clock by `ms` and fires the timers that come due, in order; their outcomes, one per timer. */
  async advance(ms: number): Promise<Array<ProcessOutcome<S> & { timer: string }>> {
    const until = this.clock + ms;
    const outcomes: Array<ProcessOutcome<S> & { timer: string }> = [];
    for (let due = this.nextDue(until); due; due = this.nextDue(until)) {
      this.clock = Math.max(this.clock, due.dueAt);
      this.timers.delete(due.name);
      outcomes.push({ ...(await this.fire(due.name, due.payload)), timer: due.name });
    }
    this.clock = until;
    return outcomes;
  }

  /** Runs the `@OnTimeout(name)` method now, whether or not the timer was scheduled. */
  async whenTimer(name: string, payload: unknown = null): Promise<ProcessOutcome<S>> {
    this.timers.delete(name);
    return this.fire(name, payload);
  }

  async whenRejected(rejection: CommandRejection): Promise<ProcessOutcome<S>> {
    const methodName = Reflect.getMetadata(REJECTION_HANDLER_METADATA, this.process.constructor) as string | undefined;
    if (!methodName) throw new Error(`${this.process.constructor.name} has no @OnRejected method`);
    const method = (this.process as Record<string, (...args: unknown[]) => unknown>)[methodName];
    return this.step((context) => method.call(this.process, rejection, context), rejection.cause);
  }

  private fire(name: string, payload: unknown): Promise<ProcessOutcome<S>> {
    const handlers = (Reflect.getMetadata(TIMEOUT_HANDLERS_METADATA, this.process.constructor) ?? []) as TimeoutHandlerMetadata[];
    const found = handlers.find((handler) => handler.name === name);
    if (!found) throw new Error(`${this.process.constructor.name} has no @OnTimeout('${name}') method`);
    const method = (this.process as Record<string, (...args: unknown[]) => unknown>)[found.methodName];
    return this.step((context) => method.call(this.process, payload, context));
  }

  private async step(react: (context: ProcessContext<S>) => unknown, event?: StoredEvent): Promise<ProcessOutcome<S>> {
    const facts = {
      key: this.key,
      correlationId: event?.metadata.correlationId ?? this.key,
      sequence: this.sequence,
      now: event?.occurredAt ?? new Date(this.clock),
      event,
      stateOf: event ? async (aggregateType: string, aggregateId: string) => this.aggregateState(aggregateType, aggregateId) : undefined,
    };
    const context = processContextOf(this.process.constructor.name, this.state, facts, (state, events) => this.apply(state, events));
    const reaction = ((await react(context)) ?? {}) as ProcessReaction;
    this.given(...(reaction.events ?? []));
    for (const name of reaction.cancel ?? []) this.timers.delete(name);
    for (const timer of reaction.schedule ?? []) this.timers.set(timer.name, { ...timer, dueAt: this.clock + timer.afterMs });
    return this.outcome(true, reaction);
  }

  private outcome(ran: boolean, reaction: ProcessReaction): ProcessOutcome<S> {
    return {
      ran,
      events: reaction.events ?? [],
      ...emittedOutcome(reaction.emit),
      scheduled: reaction.schedule ?? [],
      cancelled: reaction.cancel ?? [],
      state: this.currentState,
    };
  }

  private nextDue(until: number): PendingTimer | undefined {
    return [...this.timers.values()].filter((timer) => timer.dueAt <= until).sort((a, b) => a.dueAt - b.dueAt)[0];
  }

  private aggregateState(aggregateType: string, aggregateId: string): unknown {
    const key = JSON.stringify([aggregateType, aggregateId]);
    if (!this.aggregates.has(key)) throw new Error(`the step read ${aggregateType}/${aggregateId}: give its state with givenAggregate('${aggregateType}', '${aggregateId}', state)`);
    return structuredClone(this.aggregates.get(key));
  }

  /** Its own events, through its `@Apply` methods, as JSON gives them back (as a replay would). */
  private apply(state: S, events: object[]): S {
    const appliers = (Reflect.getMetadata(APPLIERS_METADATA, this.process.constructor) ?? []) as ApplierMetadata[];
    for (const event of events) {
      const applier = appliers.find((entry) => eventTypeName(entry.event) === eventTypeName(event));
      if (!applier) throw new Error(`${this.process.constructor.name} returned ${event.constructor.name}, which it has no @Apply for`);
      const { payload } = asStored(event, eventTypeName);
      const next = (this.process as Record<string, (state: S, event: unknown) => S | void>)[applier.methodName](state, payload);
      if (next !== undefined) state = next;
    }
    return state;
  }
}
