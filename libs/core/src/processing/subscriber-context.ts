import type { StoredEvent } from '../model/event-envelope.js';

/** What every event handler of a projector or saga receives beside the event. */
export interface EventContext {
  /** The event as stored: position, aggregate, sequence, time and metadata. */
  readonly envelope: StoredEvent;
  /** The workflow the event belongs to. */
  readonly correlationId: string;
  /** The id of the principal whose command stored the event, when an outside caller sent it. */
  readonly principalId?: string;
}

/**
 * A projector's context: `tx` is the transaction that also moves its checkpoint, as the adapter gives
 * it (TypeORM: an EntityManager; in memory: undefined). Write the read model through it.
 */
export interface ProjectionContext<Tx = unknown> extends EventContext {
  readonly tx: Tx;
  /**
   * Says that this event changed the read model, and which keys of it (a table id, a player id; none
   * for "something"): once the change is committed, the live queries watching those keys, and those
   * watching the whole projector, re-run. A projector that never calls it wakes no live query.
   */
  changed(...keys: string[]): void;
  /**
   * The name to write one of the projector's declared tables under (`@Projector(name, { tables })`):
   * the table itself, or, while a blue/green rebuild builds it, the new copy's. Put it in the SQL
   * instead of the literal name.
   */
  table(name: string): string;
}

/** A saga's context. */
export type SagaContext = EventContext;

/**
 * A process manager's context, for an event, a timer or a refused command. Everything a step needs
 * comes from here, so a step that is delivered again decides the same.
 */
export interface ProcessContext<S = unknown> {
  /** The instance's state before this step (a copy: change it freely). */
  readonly state: S;
  /** The instance id: the key the process manager takes from its events (default: the correlation id). */
  readonly key: string;
  /** The trigger's correlation id (a timer's: the instance id); the commands the step sends carry it. */
  readonly correlationId: string;
  /** The instance's own sequence before this step. */
  readonly sequence: number;
  /** When the trigger happened (the event's time, or the timer's due time). */
  readonly now: Date;
  /** The triggering event (for a refused command: the event whose step sent it); absent for timers. */
  readonly envelope?: StoredEvent;
  readonly principalId?: string;
  /** The state after these events of its own, through its `@Apply` methods (nothing is stored). */
  stateAfter(...events: object[]): S;
  /**
   * An aggregate's state as of the triggering event (its events up to that position), the same on
   * every delivery. Event steps only: a timer carries what it needs in its payload.
   */
  stateOf<T = unknown>(aggregateType: string, aggregateId: string): Promise<T>;
}

export function eventContext(event: StoredEvent): EventContext {
  return { envelope: event, correlationId: event.metadata.correlationId, ...principalIdOf(event) };
}

/** `{ principalId }` when the event's command came from an outside caller (the id its metadata keeps), else nothing. */
export function principalIdOf(event: StoredEvent | undefined): { principalId?: string } {
  const principal = event?.metadata.principal;
  return typeof principal === 'string' ? { principalId: principal } : {};
}
