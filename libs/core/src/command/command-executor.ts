import { Inject, Injectable, Optional } from '@nestjs/common';
import { COMMAND_AUTHORIZER, type CommandAuthorizer } from '../model/command-authorizer.js';
import type { Principal } from '../model/principal.js';
import type { CommandHandlerDefinition } from '../model/aggregate-definition.js';
import { AlreadyExistsError, EventSourcingError, PermissionDeniedError, SequenceMismatchError, UnauthenticatedError } from '../errors/index.js';
import { MergeResolver } from './merge-resolver.js';
import type { MergeStrategyName } from '../model/merge-strategy.js';
import type { StreamId } from '../model/event-envelope.js';
import { EVENT_STORE, type CommandRecord, type EventStore } from '../store/event-store.js';
import { ConcurrencyError, DuplicateCommandError } from '../store/store-errors.js';
import { AggregateLoader, type LoadedAggregate } from './aggregate-loader.js';
import type { CommandContext } from '../model/command-context.js';
import { EventAppender } from './event-appender.js';
import { invokeHandler } from './handler-invoker.js';
import type { NormalizedHandlerResult } from '../model/handler-result.js';
import type { EventMetadataInput } from './new-event.js';
import type { CommandResult } from '../model/send-options.js';
import { Tracing } from '../runtime/tracing.js';
import { setTimeout as sleep } from 'node:timers/promises';

/** A validated command with everything the pipeline needs to run it. */
export interface CommandEnvelope {
  handler: CommandHandlerDefinition;
  command: object;
  stream: StreamId;
  commandId: string;
  /** Only caller-given ids are recorded for idempotency: a fresh uuid cannot repeat. */
  commandIdGiven: boolean;
  /** With a caller-given id: what the command is, so a reuse of the id for another command is refused. */
  fingerprint?: string;
  correlationId: string;
  causationId: string | null;
  expectedSequence?: number;
  mergeStrategy?: MergeStrategyName;
  metadata?: Record<string, unknown>;
  principal?: Principal;
  /** Ask the command authorizer before deciding (an outside caller). */
  authorize: boolean;
}

/**
 * An append that lost a race is retried through the merge pipeline (decided again on the fresh
 * state) at least this often, and for as long as this budget lasts: instances racing on one hot
 * aggregate each win in turn, so a command is refused only when its aggregate is hotter than the
 * database can commit, not because it lost a few rounds.
 */
const MIN_CONFLICT_RETRIES = 5;
const CONFLICT_RETRY_BUDGET_MS = 5_000;
/** A random pause of up to this (growing with the tries) keeps losers of one race from meeting again in the next. */
const MAX_CONFLICT_BACKOFF_MS = 20;

/**
 * One command, inside its aggregate's dispatcher lane: idempotency, load, merge, decide,
 * append, snapshot.
 */
@Injectable()
export class CommandExecutor {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly loader: AggregateLoader,
    private readonly merge: MergeResolver,
    private readonly appender: EventAppender,
    private readonly tracing: Tracing,
    @Optional() @Inject(COMMAND_AUTHORIZER) private readonly authorizer?: CommandAuthorizer,
  ) {}

  async execute(envelope: CommandEnvelope): Promise<CommandResult> {
    const { handler, stream } = envelope;
    const aggregate = handler.aggregate;
    // A caller-given id is not looked up first: the append refuses an id it has recorded, and only
    // then (or when deciding fails, as a repeat may on the state its first run left) is the record read.
    let lookedUp = !envelope.commandIdGiven;
    const now = new Date();
    const expected = envelope.expectedSequence;
    // The cached state is trusted without a read when the caller's expectation agrees with it: the
    // append's sequence guard catches a cache that another instance made stale, and then the command
    // is decided again (below). That read per command is the store's busiest query, spared.
    const cached = this.loader.cached(stream);
    let verified = !(cached && (expected === undefined || expected === cached.sequence));
    let loaded = verified ? await this.loader.load(aggregate, stream) : cached!;
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      const context: CommandContext = {
        aggregateType: stream.aggregateType,
        aggregateId: stream.aggregateId,
        sequence: loaded.sequence,
        commandId: envelope.commandId,
        correlationId: envelope.correlationId,
        now,
        principal: envelope.principal,
      };
      let decided: NormalizedHandlerResult;
      try {
        decided = await this.tracing.span('decide', { attributes: { 'es.sequence': loaded.sequence } }, async () => {
          await this.authorize(envelope, loaded);
          return this.decide(envelope, loaded, expected, context);
        });
      } catch (error) {
        if (!lookedUp) {
          lookedUp = true;
          const record = await this.store.findCommand(stream, envelope.commandId);
          if (record) return this.repeated(envelope, record, verified ? loaded : await this.loader.load(aggregate, stream));
        }
        // A refusal decided on unchecked state must hold on the current one.
        if (verified || !(error instanceof EventSourcingError)) throw error;
        verified = true;
        const fresh = await this.loader.load(aggregate, stream);
        if (fresh.sequence === loaded.sequence) throw error;
        loaded = fresh;
        continue;
      }
      try {
        // Only a caller-given id can come again: recording a fresh one would cost two statements for nothing.
        const { appended } = await this.appender.append({
          aggregate,
          stream,
          loaded,
          events: decided.events,
          metadata: eventMetadata(envelope),
          occurredAt: now,
          commandId: envelope.commandIdGiven ? envelope.commandId : undefined,
          commandFingerprint: envelope.commandIdGiven ? envelope.fingerprint : undefined,
          snapshotState: decided.snapshotState,
        });
        return { ...stream, sequence: appended.sequence, events: appended.events, commandId: envelope.commandId, duplicate: false };
      } catch (error) {
        if (error instanceof DuplicateCommandError) {
          const record = await this.store.findCommand(stream, envelope.commandId);
          if (record) return fromRecord(record, envelope);
        }
        if (!(error instanceof ConcurrencyError)) throw error;
        if (attempt >= MIN_CONFLICT_RETRIES && Date.now() - started >= CONFLICT_RETRY_BUDGET_MS) {
          throw new SequenceMismatchError(
            `${handler.commandType} on ${stream.aggregateType}/${stream.aggregateId} kept losing the append race (${attempt + 1} tries)`,
            error.expectedSequence,
            error.actualSequence,
          );
        }
        // Another instance appended between our load and our append (or our cache was stale). A caller
        // that claimed no sequence saw nothing that could conflict: the command is decided again on the
        // fresh state, as if it had run just after the other append. A claimed sequence goes to the
        // merge strategy on the fresh state.
        if (attempt > 0) await sleep(Math.random() * Math.min(2 ** attempt, MAX_CONFLICT_BACKOFF_MS));
        loaded = (await this.loader.catchUp(aggregate, stream)).loaded;
        verified = true;
      }
    }
  }

  /** A repeated id answers with the first result only to a caller who may send the command. */
  private async repeated(envelope: CommandEnvelope, record: CommandRecord, loaded: LoadedAggregate): Promise<CommandResult> {
    await this.authorize(envelope, loaded);
    return fromRecord(record, envelope);
  }

  /** Inside the try above: a refusal decided on a cached state is checked on the current one, like a handler's. */
  private async authorize(envelope: CommandEnvelope, loaded: LoadedAggregate): Promise<void> {
    if (!envelope.authorize || !this.authorizer) return;
    const { principal, handler, command, stream } = envelope;
    const allowed = await this.authorizer.authorize({
      principal,
      command,
      commandType: handler.commandType,
      aggregateType: stream.aggregateType,
      aggregateId: stream.aggregateId,
      sequence: loaded.sequence,
      state: structuredClone(loaded.state),
    });
    if (allowed === true) return;
    const target = `${handler.commandType} on ${stream.aggregateType}/${stream.aggregateId}`;
    if (!principal) throw new UnauthenticatedError(`${target} needs an authenticated caller`);
    throw new PermissionDeniedError(`${principal.id} may not send ${target}`);
  }

  private decide(envelope: CommandEnvelope, loaded: LoadedAggregate, expected: number | undefined, context: CommandContext): Promise<NormalizedHandlerResult> {
    const { handler, command } = envelope;
    if (expected === undefined || expected === loaded.sequence) return invokeHandler(handler, command, loaded.state, context);
    return this.merge.resolve({
      handler,
      command,
      stream: envelope.stream,
      strategy: envelope.mergeStrategy ?? handler.mergeStrategy,
      expected,
      actual: loaded,
      context,
      loader: this.loader,
      sendContext: {
        commandId: envelope.commandId,
        correlationId: envelope.correlationId,
        causationId: envelope.causationId,
        metadata: envelope.metadata ?? {},
      },
    });
  }
}

/** An event is caused by its command; what caused the command (a saga's event) is kept beside it. */
function eventMetadata(envelope: CommandEnvelope): EventMetadataInput {
  return {
    ...envelope.metadata,
    commandId: envelope.commandId,
    correlationId: envelope.correlationId,
    causationId: envelope.commandId,
    ...(envelope.principal ? { principal: envelope.principal.id } : {}),
    ...(envelope.causationId ? { commandCausationId: envelope.causationId } : {}),
  };
}

/** The first result again, if the record is of this command; a record of another command refuses it. */
function fromRecord(record: CommandRecord, envelope: CommandEnvelope): CommandResult {
  if (record.fingerprint !== null && envelope.fingerprint !== undefined && record.fingerprint !== envelope.fingerprint) {
    const { stream, handler, commandId } = envelope;
    throw new AlreadyExistsError(
      `command id '${commandId}' was already used on ${stream.aggregateType}/${stream.aggregateId} for another command; ` +
        `this ${handler.commandType} differs from it (type or payload): send it with a new command id`,
      { commandId },
    );
  }
  return { ...record.stream, sequence: record.sequence, events: record.events, commandId: record.commandId, duplicate: true };
}

