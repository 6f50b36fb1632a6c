import { Logger } from '@nestjs/common';
import type { AggregateLoader } from '../command/aggregate-loader.js';
import type { EventAppender } from '../command/event-appender.js';
import { eventTypeName } from '../decorators/event-type.decorator.js';
import type { ProcessDefinition, SubscriberDefinition, SubscriberMethod } from '../discovery/subscriber-definition.js';
import type { AggregateDispatcher } from '../scheduling/index.js';
import type { StoredEvent, StreamId } from '../model/event-envelope.js';
import type { CheckpointStore } from '../store/checkpoint-store.js';
import type { EventStore } from '../store/event-store.js';
import { ConcurrencyError, DuplicateCommandError } from '../store/store-errors.js';
import type { ProcessTimer, TimerStore } from '../store/timer-store.js';
import type { Tracing } from '../runtime/tracing.js';
import type { BatchHandler } from './batch-handler.js';
import type { DeliveryGuard } from './delivery-guard.js';
import { deliverySpan } from './delivery-span.js';
import { deterministicId } from './deterministic-id.js';
import { toEmissions, type CommandRejection, type ProcessContext, type ProcessReaction } from './emissions.js';
import { MAX_COMPENSATION_DEPTH, type EmissionSender } from './emission-sender.js';

export interface ProcessManagerDependencies {
  lanes: AggregateDispatcher;
  store: EventStore;
  loader: AggregateLoader;
  checkpoints: CheckpointStore;
  timers: TimerStore;
  sender: EmissionSender;
  appender: EventAppender;
  guard: DeliveryGuard;
  tracing: Tracing;
  /** The checkpoint of the partition this handler runs for (default: the subscriber's name). */
  checkpoint?: string;
}

/** One thing a process instance reacts to: an event, a timer or a refused command. */
interface Step {
  correlationId: string;
  /** Unique per trigger: the step is recorded under an id derived from it, so it runs once. */
  triggerId: string;
  canStart: boolean;
  now: Date;
  react(state: unknown, context: ProcessContext): unknown;
  event?: StoredEvent;
}

/**
 * Process managers: event-sourced coordinators whose id is the correlation id. Each step (event,
 * timer, rejection) appends the manager's own events under a command id derived from its trigger;
 * a redelivered trigger finds that record, recomputes the same reaction from the state the step
 * first saw, and re-sends its commands (deterministic ids make that harmless).
 */
export class ProcessManagerHandler implements BatchHandler {
  private readonly logger: Logger;
  private readonly process: ProcessDefinition;

  constructor(
    private readonly subscriber: SubscriberDefinition,
    private readonly deps: ProcessManagerDependencies,
  ) {
    this.process = subscriber.process!;
    this.logger = new Logger(`ProcessManager:${subscriber.name}`);
  }

  async handle(events: StoredEvent[], _from: number, to: number): Promise<boolean> {
    await Promise.all(
      events.map((event) =>
        this.deps.lanes.dispatch(this.subscriber.name, event.metadata.correlationId, () => this.deps.guard.deliver(event, () => this.redeliver(event))),
      ),
    );
    await this.deps.checkpoints.save(this.deps.checkpoint ?? this.subscriber.name, to);
    return true;
  }

  redeliver(event: StoredEvent): Promise<void> {
    const handler = this.subscriber.handlers.get(event.type)!;
    return deliverySpan(this.deps.tracing, this.subscriber, event, () =>
      this.run({
        correlationId: event.metadata.correlationId,
        triggerId: `event:${event.metadata.eventId}`,
        canStart: this.process.startsOn.has(event.type),
        now: event.occurredAt,
        react: (state, context) => handler(event.payload, state, context, event),
        event,
      }),
    );
  }

  /** Runs a due timer in the instance's lane; the timer poller marks it fired afterwards. */
  fire(timer: ProcessTimer): Promise<void> {
    const handler: SubscriberMethod | undefined = this.process.timeouts.get(timer.name);
    if (!handler) throw new Error(`${this.subscriber.classRef.name} has no @OnTimeout('${timer.name}') method`);
    return this.deps.lanes.dispatch(this.subscriber.name, timer.correlationId, () =>
      this.run({
        correlationId: timer.correlationId,
        triggerId: `timer:${timer.id}`,
        canStart: false,
        now: timer.dueAt,
        react: (state, context) => handler(timer.payload, state, context),
      }),
    );
  }

  private async run(step: Step, depth = 0): Promise<void> {
    const { aggregate } = this.process;
    const stream: StreamId = { aggregateType: this.subscriber.name, aggregateId: step.correlationId };
    const stepId = deterministicId(this.subscriber.name, step.triggerId);
    for (;;) {
      const record = await this.deps.store.findCommand(stream, stepId);
      let reaction: ProcessReaction;
      let sequence: number;
      if (record) {
        sequence = record.sequence - record.events.length;
        const before = await this.deps.loader.loadAt(aggregate, stream, sequence);
        reaction = normalize(await step.react(before.state, { correlationId: step.correlationId, sequence, now: step.now }));
      } else {
        const loaded = await this.deps.loader.load(aggregate, stream);
        if (loaded.sequence === 0 && !step.canStart) return;
        sequence = loaded.sequence;
        reaction = normalize(await step.react(structuredClone(loaded.state), { correlationId: step.correlationId, sequence, now: step.now }));
        const events = reaction.events ?? [];
        for (const event of events) {
          if (!aggregate.appliers.has(eventTypeName(event))) {
            throw new Error(`${this.subscriber.classRef.name} returned ${event.constructor.name}, which it has no @Apply for`);
          }
        }
        try {
          await this.deps.appender.append({
            aggregate,
            stream,
            loaded,
            events,
            metadata: { commandId: stepId, correlationId: step.correlationId, causationId: step.triggerId.slice(step.triggerId.indexOf(':') + 1) },
            occurredAt: step.now,
            commandId: stepId,
          });
        } catch (error) {
          if (!(error instanceof ConcurrencyError) && !(error instanceof DuplicateCommandError)) throw error;
          this.deps.loader.forget(stream);
          continue;
        }
      }
      await this.sideEffects(step, stepId, reaction, depth);
      return;
    }
  }

  private async sideEffects(step: Step, stepId: string, reaction: ProcessReaction, depth: number): Promise<void> {
    const owner = this.subscriber.name;
    for (const name of reaction.cancel ?? []) await this.deps.timers.cancel(owner, step.correlationId, name);
    for (const timer of reaction.schedule ?? []) {
      await this.deps.timers.schedule({
        id: deterministicId(owner, step.correlationId, timer.name, stepId),
        owner,
        correlationId: step.correlationId,
        name: timer.name,
        dueAt: new Date(step.now.getTime() + timer.afterMs),
        payload: timer.payload ?? null,
      });
    }
    const rejections = await this.deps.sender.send(toEmissions(reaction.emit), {
      idBase: [owner, stepId],
      correlationId: step.correlationId,
      causationId: step.event?.metadata.eventId ?? stepId,
      event: step.event,
    });
    for (const rejection of rejections) await this.compensate(step, rejection, depth);
  }

  private async compensate(step: Step, rejection: CommandRejection, depth: number): Promise<void> {
    const onRejected = this.subscriber.onRejected;
    if (!onRejected || depth >= MAX_COMPENSATION_DEPTH) {
      this.logger.warn(`${rejection.commandType} was refused (${rejection.code}: ${rejection.message}) and nothing compensates it`);
      return;
    }
    await this.run(
      {
        correlationId: step.correlationId,
        triggerId: `rejected:${rejection.commandId}`,
        canStart: false,
        now: step.now,
        react: (state, context) => onRejected(rejection, state, context),
        event: step.event,
      },
      depth + 1,
    );
  }
}

function normalize(reaction: unknown): ProcessReaction {
  return (reaction ?? {}) as ProcessReaction;
}
