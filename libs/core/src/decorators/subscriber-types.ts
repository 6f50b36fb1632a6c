import type { Type } from '@nestjs/common';

export type SubscriberKind = 'projector' | 'saga' | 'process-manager';

export interface SubscriberOptions {
  /** Events read from the store per batch. Default 500. */
  batchSize?: number;
  /** Attempts per event before it goes to the dead-letter table. Default 5. */
  maxAttempts?: number;
}

export interface ProcessManagerOptions extends SubscriberOptions {
  /** Events that start a process instance; other events reach only instances that exist. */
  startsOn: Type[];
  /** Version of the state's shape (snapshots of another version are ignored). Default 1. */
  stateVersion?: number;
}

export interface SubscriberMetadata {
  name: string;
  kind: SubscriberKind;
  options: SubscriberOptions | ProcessManagerOptions;
}

export interface EventHandlerMetadata {
  events: Type[];
  methodName: string;
}

export interface TimeoutHandlerMetadata {
  name: string;
  methodName: string;
}
