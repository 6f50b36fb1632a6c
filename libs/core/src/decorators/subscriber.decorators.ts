import { Injectable, type Type } from '@nestjs/common';
import { EVENT_HANDLERS_METADATA, REJECTION_HANDLER_METADATA, SUBSCRIBER_METADATA, TIMEOUT_HANDLERS_METADATA } from './constants.js';
import { pushClassMetadata } from './method-metadata.js';
import type {
  EventHandlerMetadata,
  OnEventOptions,
  ProcessManagerOptions,
  SubscriberKind,
  SubscriberMetadata,
  SubscriberOptions,
  TimeoutHandlerMetadata,
} from './subscriber-types.js';

function subscriber(kind: SubscriberKind, name: string, options: SubscriberOptions): ClassDecorator {
  return (target) => {
    Injectable()(target);
    const metadata: SubscriberMetadata = { name, kind, options };
    Reflect.defineMetadata(SUBSCRIBER_METADATA, metadata, target);
  };
}

/**
 * A read model built from events. `@OnEvent` methods get `(event, ctx: ProjectionContext<Tx>)`;
 * `ctx.tx` is the transaction that also commits the projector's checkpoint, as the adapter gives it
 * (TypeORM: an EntityManager; in memory: undefined).
 * An optional `reset(tx)` method clears the read model for a rebuild from position 0.
 */
export function Projector(name: string, options: SubscriberOptions = {}): ClassDecorator {
  return subscriber('projector', name, options);
}

/**
 * A stateless translator: `@OnEvent` methods get `(event, ctx: SagaContext)` and return commands and
 * facts (see `emit` and `fact`) for other aggregates. Beside @nestjs/cqrs's `Saga`, import it under
 * another name: `import { Saga as EventSaga } from '@nest-es/core'`.
 */
export function Saga(name: string, options: SubscriberOptions = {}): ClassDecorator {
  return subscriber('saga', name, options);
}

/**
 * An event-sourced coordinator, one instance per key (the correlation id unless `key` names another).
 * It has `initialState()` and `@Apply` methods for its own events; `@OnEvent` methods get
 * `(event, ctx: ProcessContext<State>)` and return a reaction: its own events, commands, facts,
 * timers to schedule or cancel.
 */
export function ProcessManager(name: string, options: ProcessManagerOptions): ClassDecorator {
  return subscriber('process-manager', name, options);
}

/** Marks a subscriber method as the handler of one or more event classes; options may follow them. */
export function OnEvent(...events: [Type, ...Type[]] | [Type, ...Type[], OnEventOptions]): MethodDecorator {
  const last = events[events.length - 1];
  const options = typeof last === 'function' ? {} : (last as OnEventOptions);
  const types = events.filter((event) => typeof event === 'function') as Type[];
  return (target, propertyKey) => {
    const entry: EventHandlerMetadata = { events: types, methodName: String(propertyKey), ...(options.key !== undefined ? { key: options.key } : {}) };
    pushClassMetadata(EVENT_HANDLERS_METADATA, target, entry);
  };
}

/**
 * Marks the saga / process-manager method that hears about its commands being refused:
 * `(rejection, ctx) => reaction`, so it can compensate.
 */
export function OnRejected(): MethodDecorator {
  return (target, propertyKey) => {
    Reflect.defineMetadata(REJECTION_HANDLER_METADATA, String(propertyKey), target.constructor);
  };
}

/** Marks the process-manager method run when its timer `name` fires: `(payload, ctx) => reaction`. */
export function OnTimeout(name: string): MethodDecorator {
  return (target, propertyKey) => {
    const entry: TimeoutHandlerMetadata = { name, methodName: String(propertyKey) };
    pushClassMetadata(TIMEOUT_HANDLERS_METADATA, target, entry);
  };
}

