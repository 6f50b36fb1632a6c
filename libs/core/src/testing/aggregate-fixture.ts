import type { Type } from '@nestjs/common';
import { replay } from '../command/aggregate-replayer.js';
import type { CommandContext } from '../model/command-context.js';
import { validateCommand } from '../command/command-validation.js';
import { eventTypeName } from '../decorators/event-type.decorator.js';
import { invokeHandler } from '../command/handler-invoker.js';
import type { AggregateDefinition } from '../model/aggregate-definition.js';
import { buildAggregateDefinition } from '../discovery/aggregate-definition-builder.js';
import { BootValidationError } from '../discovery/boot-validation.error.js';
import { ErrorCode } from '../errors/error-code.js';
import { EventSourcingError } from '../errors/event-sourcing.error.js';

export interface FixtureOutcome<S> {
  /** Events the handler returned (class instances). */
  events: object[];
  /** State after applying them (unchanged when the command was refused). */
  state: S;
  /** The refusal, if any. */
  error?: EventSourcingError;
  /** Whether the handler handed back a snapshot state. */
  snapshotState?: unknown;
}

/**
 * Given/when/then for one aggregate, without a database: `given` past events, `when` a
 * command, then look at the events, the state or the error. Commands are validated as the
 * gateway validates them, so INVALID_ARGUMENT from class-validator shows up here too.
 */
export class AggregateFixture<S = any> {
  private history: object[] = [];
  private sequence = 0;

  private constructor(private readonly definition: AggregateDefinition) {}

  static for<S = any>(classRef: Type, instance: object = new classRef()): AggregateFixture<S> {
    const problems: string[] = [];
    const definition = buildAggregateDefinition(classRef, instance, {}, problems);
    if (!definition || problems.length > 0) throw new BootValidationError(problems);
    return new AggregateFixture<S>(definition);
  }

  given(...events: object[]): this {
    this.history.push(...events);
    this.sequence += events.length;
    return this;
  }

  /** State after the `given` events. */
  get state(): S {
    return this.replay(this.definition.initialState(), this.history);
  }

  async when(command: object, context: Partial<CommandContext> = {}): Promise<FixtureOutcome<S>> {
    const before = this.state;
    const handler = this.definition.commandHandlers.get(command.constructor.name);
    if (!handler) throw new Error(`${this.definition.classRef.name} has no handler for ${command.constructor.name}`);
    const fullContext: CommandContext = {
      aggregateType: this.definition.type,
      aggregateId: 'test-id',
      sequence: this.sequence,
      commandId: 'test-command',
      correlationId: 'test-correlation',
      now: new Date('2026-01-01T00:00:00Z'),
      ...context,
    };
    try {
      await validateCommand(command);
      const result = await invokeHandler(handler, command, before, fullContext);
      const state = this.replay(structuredClone(before), result.events);
      return { events: result.events, state, snapshotState: result.snapshotState };
    } catch (error) {
      if (error instanceof EventSourcingError) return { events: [], state: before, error };
      throw error;
    }
  }

  /** Runs the command and, if it succeeded, makes its events part of the history. */
  async whenThenGiven(command: object, context: Partial<CommandContext> = {}): Promise<FixtureOutcome<S>> {
    const outcome = await this.when(command, context);
    if (!outcome.error) this.given(...outcome.events);
    return outcome;
  }

  private replay(state: unknown, events: object[]): S {
    // Round-trip through JSON, as the store does, so appliers see what they will see in production.
    return replay(this.definition, state, events.map((event) => ({ type: eventTypeName(event), payload: JSON.parse(JSON.stringify(event)) }))) as S;
  }
}

export function expectRefusal(outcome: FixtureOutcome<unknown>, code: ErrorCode, message?: RegExp | string): void {
  if (!outcome.error) throw new Error(`expected ${code} but the command succeeded with ${outcome.events.map((e) => e.constructor.name).join(', ') || 'no events'}`);
  if (outcome.error.code !== code) throw new Error(`expected ${code} but got ${outcome.error.code}: ${outcome.error.message}`);
  if (message !== undefined) {
    const matches = typeof message === 'string' ? outcome.error.message.includes(message) : message.test(outcome.error.message);
    if (!matches) throw new Error(`expected the ${code} message to match ${message}, got: ${outcome.error.message}`);
  }
}
