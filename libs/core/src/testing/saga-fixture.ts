import type { Type } from '@nestjs/common';
import { EVENT_HANDLERS_METADATA, REJECTION_HANDLER_METADATA, SUBSCRIBER_METADATA } from '../decorators/constants.js';
import { eventTypeName } from '../decorators/event-type.decorator.js';
import type { EventHandlerMetadata, SubscriberMetadata } from '../decorators/subscriber-types.js';
import type { CommandRejection, Emitted } from '../processing/emissions.js';
import type { EventMetadata, StoredEvent } from '../model/event-envelope.js';
import { emittedOutcome, type EmittedOutcome } from './emitted-outcome.js';
import { eventContext } from '../processing/subscriber-context.js';
import { storedEvent } from './stored-event-of.js';

type Envelope = Partial<Omit<StoredEvent, 'metadata'>> & { metadata?: Partial<EventMetadata> };

/**
 * When an event, then the commands and facts a saga sends, without a database: the event reaches
 * the saga's `@OnEvent` method as it would from the store (a JSON copy of its payload, and a context
 * whose envelope you may shape). `whenRejected` runs its `@OnRejected` method.
 */
export class SagaFixture<T extends object = object> {
  private constructor(readonly saga: T) {}

  static for<T extends object>(classRef: Type<T>, instance: T = new classRef()): SagaFixture<T> {
    const metadata = Reflect.getMetadata(SUBSCRIBER_METADATA, classRef) as SubscriberMetadata | undefined;
    if (metadata?.kind !== 'saga') throw new Error(`${classRef.name} is not decorated with @Saga`);
    return new SagaFixture(instance);
  }

  /** Runs the handler of `event`; an event the saga does not handle is a mistake in the test. */
  async when(event: object, envelope: Envelope = {}): Promise<EmittedOutcome> {
    const stored = storedEvent(event, envelope);
    const method = handlerOf(this.saga, stored.type);
    return emittedOutcome((await method.call(this.saga, stored.payload, eventContext(stored))) as Emitted | Emitted[] | undefined);
  }

  /** Runs the `@OnRejected` method; its context is that of the rejection's `cause` (give one to shape it). */
  async whenRejected(rejection: CommandRejection): Promise<EmittedOutcome> {
    const methodName = Reflect.getMetadata(REJECTION_HANDLER_METADATA, this.saga.constructor) as string | undefined;
    if (!methodName) throw new Error(`${this.saga.constructor.name} has no @OnRejected method`);
    const method = (this.saga as Record<string, (...args: unknown[]) => unknown>)[methodName];
    const cause = rejection.cause ?? storedEvent(rejection.command, {});
    return emittedOutcome((await method.call(this.saga, rejection, eventContext(cause))) as Emitted | Emitted[] | undefined);
  }
}

/** The `@OnEvent` method of a subscriber instance for a stored event type. */
export function handlerOf(subscriber: object, type: string): (...args: unknown[]) => unknown {
  const handlers = (Reflect.getMetadata(EVENT_HANDLERS_METADATA, subscriber.constructor) ?? []) as EventHandlerMetadata[];
  const found = handlers.find((handler) => handler.events.some((event) => eventTypeName(event) === type));
  if (!found) throw new Error(`${subscriber.constructor.name} has no @OnEvent for ${type}`);
  return (subscriber as Record<string, (...args: unknown[]) => unknown>)[found.methodName];
}
