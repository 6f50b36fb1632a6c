import { Inject, Injectable, Logger } from '@nestjs/common';
import { instanceToPlain } from 'class-transformer';
import type { CommandContext } from '../command/command-context.js';
import type { AggregateLoader, LoadedAggregate } from '../command/aggregate-loader.js';
import { replay } from '../command/aggregate-replayer.js';
import type { NormalizedHandlerResult } from '../command/handler-result.js';
import { assertDeclaredEvents, invokeHandler } from '../command/handler-invoker.js';
import type { CommandHandlerDefinition } from '../discovery/aggregate-definition.js';
import { AbortedError, SequenceMismatchError } from '../errors/index.js';
import type { StreamId } from '../store/event-envelope.js';
import { DEAD_LETTER_STORE, type DeadLetter, type DeadLetterStore } from '../store/dead-letter-store.js';
import { MergeStrategy } from './merge-strategy.js';
import type { ParkedCommandContext, SendContext } from './parked-command.js';
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
  sendContext: SendContext;
}

/**
 * The merge interceptor of the command pipeline: decides what a command whose caller saw an
 * older sequence does on the actual state (DESIGN.md section 5, seed 003 "Merge Strategies").
 * It runs on an Expected-Sequence mismatch and when the append loses a race to another process.
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
    if (handler.modifies?.includes('*')) throw this.degrade(request, `${handler.commandType} declares modifies ['*']`);
    const atExpected = await this.replayAt(request, request.expected);
    const changed = changedPaths(atExpected.state, actual.state);
    if (changed.includes('*')) throw this.degrade(request, 'the aggregate state cannot be compared field by field');
    // Declared fields are checked before the handler runs: an overlap is the caller's conflict
    // (412 with both sequences), not a business refusal computed on state the caller never saw.
    if (handler.modifies) this.refuseOverlap(request, changed, handler.modifies);
    const decided = await invokeHandler(handler, command, actual.state, context);
    if (!handler.modifies) this.refuseOverlap(request, changed, await this.fieldsChangedBy(request, decided));
    return decided;
  }

  private refuseOverlap(request: MergeRequest, changed: string[], modified: string[]): void {
    if (modified.includes('*')) throw this.degrade(request, 'the fields the command modifies cannot be told');
    const overlap = overlappingPaths(changed, modified);
    if (overlap.length > 0) {
      throw this.mismatch(
        request,
        `${request.handler.commandType} modifies ${overlap.join(', ')}, which changed since sequence ${request.expected}`,
        { overlappingFields: overlap, changedFields: changed },
      );
    }
  }

  /** Undeclared fields: the command's events applied to a fresh replay at the actual sequence, diffed against it. */
  private async fieldsChangedBy(request: MergeRequest, decided: NormalizedHandlerResult): Promise<string[]> {
    const fresh = await this.replayAt(request, request.actual.sequence);
    const events = decided.events.map((event) => ({ type: event.constructor.name, payload: event }));
    try {
      return changedPaths(request.actual.state, replay(request.handler.aggregate, fresh.state, events));
    } catch (error) {
      throw this.degrade(request, `applying its events to a replay failed (${(error as Error).message})`);
    }
  }

  private async askAggregate(request: MergeRequest): Promise<NormalizedHandlerResult> {
    const { handler, command, actual, context } = request;
    const aggregateName = handler.aggregate.classRef.name;
    const atExpected = await this.replayAt(request, request.expected);
    // The gateway and the boot check guarantee a merge handler wherever AGGREGATE_HANDLES can be chosen.
    const decision = await handler.aggregate.mergeHandler!(command, atExpected.state, actual.state, context);
    if (!decision.proceed) throw this.mismatch(request, `${aggregateName} refused the merge: ${decision.reason}`, { reason: decision.reason });
    assertDeclaredEvents(handler, decision.events, `${aggregateName}'s @MergeHandler`);
    return { events: decision.events };
  }

  /** State at `sequence` (from a snapshot at or below it when there is one); a failure degrades the merge to STRICT. */
  private async replayAt(request: MergeRequest, sequence: number): Promise<LoadedAggregate> {
    try {
      return await request.loader.loadAt(request.handler.aggregate, request.stream, sequence);
    } catch (error) {
      throw this.degrade(request, `the state at sequence ${sequence} could not be replayed (${(error as Error).message})`);
    }
  }

  private async park(request: MergeRequest): Promise<never> {
    const { handler, command, stream, expected, actual, sendContext } = request;
    const entry = (await this.pendingLetterOf(request)) ?? (await this.deadLetters.add({
      kind: 'command',
      subscriber: null,
      aggregateType: stream.aggregateType,
      aggregateId: stream.aggregateId,
      messageType: handler.commandType,
      payload: instanceToPlain(command),
      context: { ...sendContext, expectedSequence: expected, actualSequence: actual.sequence } satisfies ParkedCommandContext,
      reason: `sequence mismatch: expected ${expected}, actual ${actual.sequence}`,
      attempts: 1,
    }));
    throw new AbortedError(
      `${handler.commandType} on ${stream.aggregateType}/${stream.aggregateId} expected sequence ${expected} but the aggregate is at ${actual.sequence}; parked for manual review as dead letter ${entry.id}`,
      entry.id,
    );
  }

  /** A repeated send of a parked command (same command id) answers with the first dead letter, as idempotency promises. */
  private async pendingLetterOf(request: MergeRequest): Promise<DeadLetter | undefined> {
    const { stream, sendContext } = request;
    const pending = await this.deadLetters.list({ status: 'pending', kind: 'command' });
    return pending.find(
      (letter) =>
        letter.aggregateType === stream.aggregateType &&
        letter.aggregateId === stream.aggregateId &&
        (letter.context as Partial<ParkedCommandContext>).commandId === sendContext.commandId,
    );
  }

  /** COMMUTATIVE falls back to STRICT when it cannot tell fields apart; the log says so (seed: graceful degradation). */
  private degrade(request: MergeRequest, why: string): SequenceMismatchError {
    const { handler, stream } = request;
    this.logger.warn(`${handler.commandType} on ${stream.aggregateType}/${stream.aggregateId}: ${why}; merge behaves as STRICT`);
    return this.mismatch(request, `${why}; merge behaves as STRICT`, { degradedToStrict: true });
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
