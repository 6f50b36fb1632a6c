import type { Type } from '@nestjs/common';
import type { ErrorCode } from '../errors/error-code.js';
import { buildCommand, type CommandFields } from '../model/command-fields.js';
import type { MergeStrategyName } from '../model/merge-strategy.js';
import type { StoredEvent } from '../model/event-envelope.js';

const EMISSION = Symbol('event-sourcing:emission');

/** A command a saga or process manager wants sent (validated; the target may refuse it). */
export interface CommandEmission {
  [EMISSION]: 'command';
  command: object;
  /** Needed when the command class has no `@AggregateId()` property. */
  aggregateId?: string;
  expectedSequence?: number;
  mergeStrategy?: MergeStrategyName;
}

/**
 * A fact: something that happened outside the target aggregate, appended through its appliers
 * without its command handlers (the aggregate cannot refuse reality), once per `externalId`.
 */
export interface FactEmission {
  [EMISSION]: 'fact';
  aggregateType: string;
  aggregateId: string;
  event: object;
  externalId: string;
}

export type Emission = CommandEmission | FactEmission;

/** What sagas return, and what process managers put in `emit`: bare commands, or the wrappers above. */
export type Emitted = object | Emission;

export type EmitOptions = Omit<CommandEmission, typeof EMISSION | 'command'>;

/** A command to send, with options: `emit(new Deposit(...), opts)` or `emit(Deposit, { accountId, amount }, opts)`. */
export function emit(command: object, options?: EmitOptions): CommandEmission;
export function emit<C extends object>(type: Type<C>, fields: CommandFields<C>, options?: EmitOptions): CommandEmission;
export function emit(first: object, second?: object, third?: EmitOptions): CommandEmission {
  if (typeof first === 'function') return { [EMISSION]: 'command', command: buildCommand(first as Type<object>, second as never), ...(third ?? {}) };
  return { [EMISSION]: 'command', command: first, ...((second as EmitOptions | undefined) ?? {}) };
}

export function fact(aggregateType: string, aggregateId: string, event: object, externalId: string): FactEmission {
  return { [EMISSION]: 'fact', aggregateType, aggregateId, event, externalId };
}

export function toEmission(emitted: Emitted): Emission {
  return (emitted as Emission)[EMISSION] ? (emitted as Emission) : emit(emitted);
}

export function toEmissions(result: Emitted | Emitted[] | void | null | undefined): Emission[] {
  if (result === undefined || result === null) return [];
  return (Array.isArray(result) ? result : [result]).map(toEmission);
}

export function isFact(emission: Emission): emission is FactEmission {
  return emission[EMISSION] === 'fact';
}

/** A process manager timer to start: fires once, `afterMs` from now, unless cancelled first. */
export interface TimerRequest {
  name: string;
  afterMs: number;
  payload?: unknown;
}

/** What a process manager decides in answer to an event, a timer or a rejection. */
export interface ProcessReaction {
  /** Its own events (each class needs an `@Apply` on the process manager). */
  events?: object[];
  emit?: Emitted[];
  schedule?: TimerRequest[];
  /** Names of pending timers to cancel. */
  cancel?: string[];
}

/** A command a saga or process manager sent, refused by its target: handed to `@OnRejected`. */
export interface CommandRejection {
  command: object;
  commandType: string;
  commandId: string;
  code: ErrorCode | string;
  message: string;
  details: Record<string, unknown>;
  /** The event whose handling emitted the command (absent for a timer's command). */
  cause?: StoredEvent;
}
