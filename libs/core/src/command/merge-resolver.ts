import { Inject, Injectable, Logger } from '@nestjs/common';
import { instanceToPlain } from 'class-transformer';
import type { CommandContext } from '../model/command-context.js';
import type { AggregateLoader, LoadedAggregate } from './aggregate-loader.js';
import { replay } from './aggregate-replayer.js';
import type { NormalizedHandlerResult } from '../model/handler-result.js';
import { assertDeclaredEvents, invokeHandler } from './handler-invoker.js';
import { eventTypeName } from '../decorators/event-type.decorator.js';
import type { CommandHandlerDefinition } from '../model/aggregate-definition.js';
import { AbortedError, AlreadyExistsError, SequenceMismatchError } from '../errors/index.js';
import { commandFingerprint } from './command-fingerprint.js';
import type { StreamId } from '../model/event-envelope.js';
import { DEAD_LETTER_STORE, type DeadLetter, type DeadLetterStore } from '../store/dead-letter-store.js';
import { EVENT_STORE, type EventStore } from '../store/event-store.js';
import type { MergeConflict } from '../merge/merge-strategy-handler.js';
import { MergeStrategies } from '../merge/merge-strategies.js';
import type { MergeStrategyName } from '../model/merge-strategy.js';
import type { ParkedCommandContext, SendContext } from '../merge/parked-command.js';

export interface MergeRequest {
  handler: CommandHandlerDefinition;
  command: object;
  stream: StreamId;
  strategy: MergeStrategyName;
  /** The sequence the caller decided on. */
  expected: number;
  /** The aggregate as it is now. */
  actual: LoadedAggregate;
  context: CommandContext;
  loader: AggregateLoader;
  sendContext: SendContext;
}

/**
 * The merge step of the command pipeline: runs the chosen strategy's interceptor on a command
 * whose caller saw an older sequence, and carries out its verdict (proceed, refuse, park, or hand
 * to the aggregate). It runs on an Expected-Sequence mismatch and when the append loses a race.
 */
@Injectable()
export class MergeResolver {
  private readonly logger = new Logger('MergeResolver');

  constructor(
    @Inject(DEAD_LETTER_STORE) private readonly deadLetters: DeadLetterStore,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly interceptors: MergeStrategies,
  ) {}

  async resolve(request: MergeRequest): Promise<NormalizedHandlerResult> {
    const { expected, actual } = request;
    if (expected > actual.sequence) {
      throw this.mismatch(request, `expected sequence ${expected} is ahead of the aggregate, which is at ${actual.sequence}`);
    }
    // The gateway and the boot check guarantee a registered name wherever one can be chosen.
    const interceptor = this.interceptors.get(request.strategy)!;
    const verdict = await interceptor.merge(this.conflict(request));
    switch (verdict.verdict) {
      case 'proceed':
        return verdict.result ?? invokeHandler(request.handler, request.command, actual.state, request.context);
      case 'refuse':
        throw this.mismatch(request, verdict.reason, verdict.details);
      case 'park':
        return this.park(request);
      case 'aggregate':
        return this.askAggregate(request);
    }
  }

  private conflict(request: MergeRequest): MergeConflict {
    const { handler, command, stream, expected, actual, context } = request;
    return {
      handler,
      command,
      stream,
      expectedSequence: expected,
      actualSequence: actual.sequence,
      actualState: structuredClone(actual.state),
      context,
      expectedState: async () => (await this.replayAt(request, expected)).state,
      eventsBetween: () => this.store.readStream(stream, { afterSequence: expected, toSequence: actual.sequence }),
      runHandler: (state = actual.state) => invokeHandler(handler, command, state, context),
      applyToActual: async (events) => {
        const fresh = await this.replayAt(request, actual.sequence);
        try {
          return replay(handler.aggregate, fresh.state, events.map((event) => ({ type: eventTypeName(event), payload: event })));
        } catch (error) {
          throw new Error(`applying its events to a replay failed (${(error as Error).message})`, { cause: error });
        }
      },
    };
  }

  private async askAggregate(request: MergeRequest): Promise<NormalizedHandlerResult> {
    const { handler, command, actual, context } = request;
    const aggregateName = handler.aggregate.classRef.name;
    let atExpected: LoadedAggregate;
    try {
      atExpected = await this.replayAt(request, request.expected);
    } catch (error) {
      const why = `${(error as Error).message}; merge behaves as STRICT`;
      this.logger.warn(`${handler.commandType} on ${request.stream.aggregateType}/${request.stream.aggregateId}: ${why}`);
      throw this.mismatch(request, why, { degradedToStrict: true });
    }
    // The gateway and the boot check guarantee a merge handler wherever AGGREGATE_HANDLES can be chosen.
    const decision = await handler.aggregate.mergeHandler!(command, atExpected.state, structuredClone(actual.state), context);
    if (!decision.proceed) throw this.mismatch(request, `${aggregateName} refused the merge: ${decision.reason}`, { reason: decision.reason });
    assertDeclaredEvents(handler, decision.events, `${aggregateName}'s @MergeHandler`);
    return { events: decision.events };
  }

  /** State at `sequence` (from a snapshot at or below it when there is one), built fresh. */
  private async replayAt(request: MergeRequest, sequence: number): Promise<LoadedAggregate> {
    try {
      return await request.loader.loadAt(request.handler.aggregate, request.stream, sequence);
    } catch (error) {
      throw new Error(`the state at sequence ${sequence} could not be replayed (${(error as Error).message})`, { cause: error });
    }
  }

  private async park(request: MergeRequest): Promise<never> {
    const { handler, command, stream, expected, actual, sendContext } = request;
    const payload = instanceToPlain(command);
    const entry = (await this.pendingLetterOf(request, payload)) ?? (await this.deadLetters.add({
      kind: 'command',
      subscriber: null,
      aggregateType: stream.aggregateType,
      aggregateId: stream.aggregateId,
      messageType: handler.commandType,
      payload,
      context: { ...sendContext, expectedSequence: expected, actualSequence: actual.sequence } satisfies ParkedCommandContext,
      reason: `sequence mismatch: expected ${expected}, actual ${actual.sequence}`,
      attempts: 1,
    }));
    throw new AbortedError(
      `${handler.commandType} on ${stream.aggregateType}/${stream.aggregateId} expected sequence ${expected} but the aggregate is at ${actual.sequence}; parked for manual review as dead letter ${entry.id}`,
      entry.id,
    );
  }

  /**
   * A repeated send of a parked command (same command id) answers with the first dead letter, as
   * idempotency promises; the same id on another command (type or payload) is refused, not parked.
   */
  private async pendingLetterOf(request: MergeRequest, payload: object): Promise<DeadLetter | undefined> {
    const { stream, sendContext, handler } = request;
    const pending = await this.deadLetters.list({ status: 'pending', kind: 'command', aggregateType: stream.aggregateType, aggregateId: stream.aggregateId });
    const letter = pending.find((found) => (found.context as Partial<ParkedCommandContext>).commandId === sendContext.commandId);
    if (letter && commandFingerprint(letter.messageType, letter.payload as object) !== commandFingerprint(handler.commandType, payload)) {
      throw new AlreadyExistsError(
        `command id '${sendContext.commandId}' already names another command on ${stream.aggregateType}/${stream.aggregateId}, parked as dead letter ${letter.id}; send this ${handler.commandType} with a new command id`,
        { commandId: sendContext.commandId, deadLetterId: letter.id },
      );
    }
    return letter;
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
