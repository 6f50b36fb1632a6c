import { Inject, Injectable, Logger } from '@nestjs/common';
import { instanceToPlain } from 'class-transformer';
import type { CommandContext } from '../command/command-context.js';
import type { AggregateLoader, LoadedAggregate } from '../command/aggregate-loader.js';
import { replay } from '../command/aggregate-replayer.js';
import type { NormalizedHandlerResult } from '../command/handler-result.js';
import { invokeHandler } from '../command/handler-invoker.js';
import type { CommandHandlerDefinition } from '../discovery/aggregate-definition.js';
import { AbortedError, SequenceMismatchError } from '../errors/index.js';
import type { StreamId } from '../store/event-envelope.js';
import { DEAD_LETTER_STORE, type DeadLetterStore } from '../store/dead-letter-store.js';
import { MergeStrategy } from './merge-strategy.js';
import { changedPaths, overlappingPaths } from './state-diff.js';

export interface MergeRequest {
  handler: CommandHandlerDefinition;
  command: object;
  stream: StreamId;
  strategy: MergeStrategy;
  /** The sequence the caller decided on. */
  expected: number;
  /** The aggregate as it is now. */
  actual: LoadedAggregate;
  context: CommandContext;
  loader: AggregateLoader;
  /** Send options worth keeping with a parked command (command id, correlation id, ...). */
  sendContext: Record<string, unknown>;
}

/**
 * The merge interceptor of the command pipeline: decides what a command whose caller saw an
 * older sequence does on the actual state (DESIGN.md section 5, seed 003 "Merge Strategies").
 */
@Injectable()
export class MergeResolver {
  private readonly logger = new Logger('MergeResolver');

  constructor(@Inject(DEAD_LETTER_STORE) private readonly deadLetters: DeadLetterStore) {}

  async resolve(request: MergeRequest): Promise<NormalizedHandlerResult> {
    const { expected, actual } = request;
    if (expected > actual.sequence) {
      throw this.mismatch(request, `expected sequence ${expected} is ahead of the aggregate, which is at ${actual.sequence}`);
    }
    switch (request.strategy) {
      case MergeStrategy.STRICT:
        throw this.mismatch(request, 'merge strategy STRICT refuses any sequence mismatch');
      case MergeStrategy.MANUAL:
        return this.park(request);
      case MergeStrategy.AGGREGATE_HANDLES:
        return this.askAggregate(request);
      case MergeStrategy.COMMUTATIVE:
        return this.commute(request);
    }
  }

  private async commute(request: MergeRequest): Promise<NormalizedHandlerResult> {
    const { handler, command, actual, context } = request;
    if (handler.modifies?.includes('*')) {
      this.logger.log(`${handler.commandType}: modifies '*' cannot be merged, behaving as STRICT`);
      throw this.mismatch(request, `${handler.commandType} declares modifies ['*']; merge behaves as STRICT`);
    }
    let atExpected: LoadedAggregate;
    try {
      atExpected = await request.loader.loadAt(handler.aggregate, request.stream, request.expected);
    } catch (error) {
      this.logger.warn(`${handler.commandType}: replay at ${request.expected} failed (${(error as Error).message}), behaving as STRICT`);
      throw this.mismatch(request, `state at sequence ${request.expected} could not be replayed; merge behaves as STRICT`);
    }
    const changed = changedPaths(atExpected.state, actual.state);
    if (changed.includes('*')) {
      this.logger.log(`${handler.commandType}: the state changed as a whole, behaving as STRICT`);
      throw this.mismatch(request, 'the aggregate state cannot be compared field by field; merge behaves as STRICT');
    }
    // Declared fields are checked before the handler runs: an overlap is the caller's conflict
    // (412 with both sequences), not a business refusal computed on state the caller never saw.
    if (handler.modifies) this.refuseOverlap(request, changed, handler.modifies);
    const decided = await invokeHandler(handler, command, actual.state, context);
    if (!handler.modifies) this.refuseOverlap(request, changed, this.fieldsChangedBy(request, decided));
    return decided;
  }

  private refuseOverlap(request: MergeRequest, changed: string[], modified: string[]): void {
    if (modified.includes('*')) {
      this.logger.log(`${request.handler.commandType}: the fields it modifies cannot be told, behaving as STRICT`);
      throw this.mismatch(request, 'the fields the command modifies cannot be told; merge behaves as STRICT');
    }
    const overlap = overlappingPaths(changed, modified);
    if (overlap.length > 0) {
      throw this.mismatch(
        request,
        `${request.handler.commandType} modifies ${overlap.join(', ')}, which changed since sequence ${request.expected}`,
        { overlappingFields: overlap, changedFields: changed },
      );
    }
  }

  /** Undeclared fields: run the command's events on a copy of the actual state and diff. */
  private fieldsChangedBy(request: MergeRequest, decided: NormalizedHandlerResult): string[] {
    const before = request.actual.state;
    const events = decided.events.map((event) => ({ type: event.constructor.name, payload: event }));
    return changedPaths(before, replay(request.handler.aggregate, structuredClone(before), events));
  }

  private async askAggregate(request: MergeRequest): Promise<NormalizedHandlerResult> {
    const { handler, command, actual, context } = request;
    const atExpected = await request.loader.loadAt(handler.aggregate, request.stream, request.expected);
    const decision = await handler.aggregate.mergeHandler!(command, atExpected.state, actual.state, context);
    if (!decision.proceed) throw this.mismatch(request, `${handler.aggregate.classRef.name} refused the merge: ${decision.reason}`);
    return { events: decision.events };
  }

  private async park(request: MergeRequest): Promise<never> {
    const { handler, command, stream, expected, actual } = request;
    const entry = await this.deadLetters.add({
      kind: 'command',
      subscriber: null,
      aggregateType: stream.aggregateType,
      aggregateId: stream.aggregateId,
      messageType: handler.commandType,
      payload: instanceToPlain(command),
      context: { ...request.sendContext, expectedSequence: expected, actualSequence: actual.sequence },
      reason: `sequence mismatch: expected ${expected}, actual ${actual.sequence}`,
      attempts: 1,
    });
    throw new AbortedError(
      `${handler.commandType} on ${stream.aggregateType}/${stream.aggregateId} expected sequence ${expected} but the aggregate is at ${actual.sequence}; parked for manual review as dead letter ${entry.id}`,
      entry.id,
    );
  }

  private mismatch(request: MergeRequest, why: string, details: Record<string, unknown> = {}): SequenceMismatchError {
    const { stream, expected, actual } = request;
    return new SequenceMismatchError(
      `${request.handler.commandType} on ${stream.aggregateType}/${stream.aggregateId}: expected sequence ${expected}, actual ${actual.sequence}: ${why}`,
      expected,
      actual.sequence,
      details,
    );
  }
}
