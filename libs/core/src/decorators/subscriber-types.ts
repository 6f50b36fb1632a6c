import type { Type } from '@nestjs/common';
import type { StoredEvent } from '../model/event-envelope.js';

export type SubscriberKind = 'projector' | 'saga' | 'process-manager';

export interface SubscriberOptions {
  /** Events read from the store per batch. Default 500. */
  batchSize?: number;
  /** Attempts per event before it goes to the dead-letter table. Default 5. */
  maxAttempts?: number;
  /**
   * Projectors only: the tables of the read model, which its handlers name through `ctx.table(name)`
   * and its `createTables(tx, table)` method creates. Declaring them lets the projector be rebuilt
   * blue/green: into a copy of these tables while they keep serving, then switched in one step.
   */
  tables?: readonly string[];
}

/**
 * Where a process manager finds the instance an event belongs to: a property of the event
 * (`'handId'`), or a function of the event and its envelope. It must give a non-empty string.
 */
export type InstanceKey = string | ((event: any, envelope: StoredEvent) => string);

export interface ProcessManagerOptions extends SubscriberOptions {
  /** Events that start a process instance; other events reach only instances that exist. */
  startsOn: Type[];
  /** The instance key of its events; `@OnEvent(Event, { key })` overrides it per event. Default: the correlation id. */
  key?: InstanceKey;
  /** Version of the state's shape (snapshots of another version are ignored). Default 1. */
  stateVersion?: number;
}

export interface SubscriberMetadata {
  name: string;
  kind: SubscriberKind;
  options: SubscriberOptions | ProcessManagerOptions;
}

/** Options of one `@OnEvent` method. */
export interface OnEventOptions {
  /** Process managers: the instance key of these events (see `ProcessManagerOptions.key`). */
  key?: InstanceKey;
}

export interface EventHandlerMetadata {
  events: Type[];
  methodName: string;
  key?: InstanceKey;
}

export interface TimeoutHandlerMetadata {
  name: string;
  methodName: string;
}
