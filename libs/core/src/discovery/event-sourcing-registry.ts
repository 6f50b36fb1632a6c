import { Injectable, type Type } from '@nestjs/common';
import type { AggregateDefinition, CommandHandlerDefinition } from '../model/aggregate-definition.js';
import { NotFoundError } from '../errors/index.js';
import { EventTypeRegistry } from './event-type-registry.js';
import type { SubscriberDefinition } from './subscriber-definition.js';

/**
 * Who handles what, filled by the explorer at bootstrap and read by the runtime. Subscribers
 * (projectors, sagas, process managers) get their own maps beside the aggregates'.
 */
@Injectable()
export class EventSourcingRegistry {
  readonly aggregates = new Map<string, AggregateDefinition>();
  readonly commandsByType = new Map<string, CommandHandlerDefinition>();
  readonly commandsByClass = new Map<Type, CommandHandlerDefinition>();
  /** Event type name -> the aggregate (or process manager) that applies it. */
  readonly eventOwners = new Map<string, AggregateDefinition>();
  readonly subscribers = new Map<string, SubscriberDefinition>();
  /** Event type name -> the subscribers handling it. */
  readonly subscribersByEvent = new Map<string, SubscriberDefinition[]>();
  /** Every event class by stored name, with its version and upcasters. */
  readonly eventTypes = new EventTypeRegistry();

  addSubscriber(definition: SubscriberDefinition): void {
    this.subscribers.set(definition.name, definition);
    for (const eventType of definition.handlers.keys()) {
      const list = this.subscribersByEvent.get(eventType) ?? [];
      list.push(definition);
      this.subscribersByEvent.set(eventType, list);
    }
  }

  /** True when a saga or process manager exists: something may cascade from an event. */
  get hasWorkflows(): boolean {
    return [...this.subscribers.values()].some((subscriber) => subscriber.kind !== 'projector');
  }

  /** The projector of that name, or NOT_FOUND naming the projectors there are (a saga's name is no projector's). */
  projector(name: string): SubscriberDefinition {
    const projector = this.subscribers.get(name);
    if (projector?.kind === 'projector') return projector;
    const known = [...this.subscribers.values()].filter((s) => s.kind === 'projector').map((s) => s.name);
    throw new NotFoundError(`unknown projector '${name}'; known: ${known.join(', ') || 'none'}`);
  }

  subscribersOf(eventType: string): readonly SubscriberDefinition[] {
    return this.subscribersByEvent.get(eventType) ?? [];
  }

  aggregate(type: string): AggregateDefinition | undefined {
    return this.aggregates.get(type);
  }

  /**
   * The handler of `commandType` on `aggregateType` if that command may be sent from outside (over
   * HTTP); undefined for unknown and unexposed commands alike. The one answer to "is it exposed".
   */
  exposedCommand(aggregateType: string, commandType: string): CommandHandlerDefinition | undefined {
    const handler = this.aggregates.get(aggregateType)?.commandHandlers.get(commandType);
    return handler?.exposed ? handler : undefined;
  }

  /** Every command that may be sent from outside, for the boot log and API documentation. */
  exposedCommands(): CommandHandlerDefinition[] {
    return [...this.aggregates.values()].flatMap((aggregate) => [...aggregate.commandHandlers.values()].filter((handler) => handler.exposed));
  }

  handlerForInstance(command: object): CommandHandlerDefinition | undefined {
    return this.commandsByClass.get(command.constructor as Type);
  }

  eventClass(type: string): Type | undefined {
    return this.eventOwners.get(type)?.eventClasses.get(type);
  }
}
