import { Inject, Injectable, type Type } from '@nestjs/common';
import { buildCommand, type CommandFields } from '../model/command-fields.js';
import type { CommandHandlerDefinition } from '../model/aggregate-definition.js';
import { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import { InvalidArgumentError, NotFoundError } from '../errors/index.js';
import { MergeStrategies } from '../merge/merge-strategies.js';
import { normalizeMergeStrategy } from '../model/merge-strategy.js';
import { AdmissionGate } from '../runtime/admission-gate.js';
import { MetricsService } from '../runtime/metrics.service.js';
import { Tracing, type TraceSpan } from '../runtime/tracing.js';
import { AggregateDispatcher } from '../scheduling/index.js';
import { COMMAND_DISPATCHER } from '../config/tokens.js';
import { EVENT_SOURCING_OPTIONS, type EventSourcingModuleOptions } from '../config/event-sourcing-options.js';
import { type CommandStep, SyncWaiter } from './sync-waiter.js';
import { CommandExecutor } from './command-executor.js';
import { commandFingerprint } from './command-fingerprint.js';
import { assertCallerMayChoose, assertMergeStrategyUsable, validateCommand, validateId, validateSendOptions } from './command-validation.js';
import { SyncMode, type CommandResult, type SendOptions } from '../model/send-options.js';
import { timeOrderedId } from './time-ordered-id.js';

const DEFAULT_SYNC_TIMEOUT_MS = 5_000;

/** The one way commands enter the framework (HTTP, @nestjs/cqrs, sagas and users all come here). */
@Injectable()
export class CommandGateway {
  constructor(
    private readonly registry: EventSourcingRegistry,
    private readonly executor: CommandExecutor,
    private readonly admission: AdmissionGate,
    @Inject(COMMAND_DISPATCHER) private readonly dispatcher: AggregateDispatcher,
    private readonly syncWaiter: SyncWaiter,
    private readonly metrics: MetricsService,
    private readonly mergeInterceptors: MergeStrategies,
    @Inject(EVENT_SOURCING_OPTIONS) private readonly options: EventSourcingModuleOptions,
    private readonly tracing: Tracing,
  ) {}

  /** Whether one of our aggregates handles this command (used by the @nestjs/cqrs bridge). */
  handles(command: object): boolean {
    return this.registry.handlerForInstance(command) !== undefined;
  }

  /**
   * Sends a command; with a sync mode, also waits for its consequences (SYNC_TIMEOUT when they are
   * late). Give the command, or its class and data: `send(Deposit, { accountId, amount }, options)`.
   */
  send(command: object, options?: SendOptions): Promise<CommandResult>;
  send<C extends object>(type: Type<C>, fields: CommandFields<C>, options?: SendOptions): Promise<CommandResult>;
  send(first: object, second?: object, third?: SendOptions): Promise<CommandResult> {
    return typeof first === 'function'
      ? this.sendCommand(buildCommand(first as Type<object>, second as never), third ?? {})
      : this.sendCommand(first, (second as SendOptions | undefined) ?? {});
  }

  /**
   * Follows a stored command's consequences as CASCADE waits for them, telling `onStep` of each
   * subscriber as it has handled them: resolves once all have, rejects with SYNC_TIMEOUT after the
   * sync timeout (the command stays stored). Send ASYNC, then follow the result.
   */
  follow(result: CommandResult, onStep: (step: CommandStep) => void, options: Pick<SendOptions, 'syncTimeoutMs'> = {}): Promise<void> {
    const timeout = options.syncTimeoutMs ?? this.options.syncTimeoutMs ?? DEFAULT_SYNC_TIMEOUT_MS;
    return this.admission.run(() => this.syncWaiter.follow(result, timeout, result.events[0]?.metadata.correlationId ?? result.commandId, onStep));
  }

  private sendCommand(command: object, options: SendOptions): Promise<CommandResult> {
    const handler = this.registry.handlerForInstance(command);
    return this.tracing.span(commandSpanName(command, handler), { attributes: commandAttributes(handler, options) }, async (span) => {
      const started = performance.now();
      let outcome = 'ok';
      try {
        // The sync wait is admitted work too: the shutdown lets it settle before the subscriptions it waits for stop.
        return await this.admission.run(() => {
          const timeout = options.syncTimeoutMs ?? this.options.syncTimeoutMs ?? DEFAULT_SYNC_TIMEOUT_MS;
          return this.syncWaiter.send(
            options.syncMode ?? SyncMode.ASYNC,
            timeout,
            () => this.dispatch(command, handler, options, span),
            (result) => result.events[0]?.metadata.correlationId ?? options.correlationId ?? result.commandId,
          );
        });
      } catch (error) {
        outcome = (error as { code?: string }).code ?? 'INTERNAL';
        throw error;
      } finally {
        if (handler) this.metrics.recordCommand(handler.aggregate.type, handler.commandType, outcome, (performance.now() - started) / 1000);
      }
    });
  }

  /** For sagas and process managers: admitted while shutting down, so they can finish their batch. */
  sendInternal(command: object, options: SendOptions): Promise<CommandResult> {
    const handler = this.registry.handlerForInstance(command);
    return this.tracing.span(commandSpanName(command, handler), { attributes: commandAttributes(handler, options) }, (span) =>
      this.admission.run(() => this.dispatch(command, handler, options, span), true),
    );
  }

  private async dispatch(command: object, handler: CommandHandlerDefinition | undefined, options: SendOptions, span: TraceSpan): Promise<CommandResult> {
    if (!handler) {
      throw new NotFoundError(`no aggregate handles command ${command?.constructor?.name ?? typeof command}`);
    }
    validateSendOptions(options);
    const mergeStrategy = options.mergeStrategy === undefined ? undefined : normalizeMergeStrategy(options.mergeStrategy);
    assertMergeStrategyUsable(handler.aggregate, mergeStrategy, this.mergeInterceptors.names());
    const authorize = options.authorize ?? options.principal !== undefined;
    if (authorize) assertCallerMayChoose(handler, mergeStrategy);
    const aggregateId = resolveAggregateId(handler, command, options);
    await validateCommand(command);
    const commandId = options.commandId ?? timeOrderedId();
    const fingerprint = options.commandId === undefined ? undefined : commandFingerprint(handler.commandType, command);
    const stream = { aggregateType: handler.aggregate.type, aggregateId };
    span.setAttributes({ 'es.aggregate.id': aggregateId, 'es.command.id': commandId, 'es.correlation_id': options.correlationId ?? commandId });
    // The lane may run the command from another caller's continuation: it runs in this command's span.
    const execute = this.tracing.bind(() =>
      this.executor.execute({
        handler,
        command,
        stream,
        commandId,
        commandIdGiven: options.commandId !== undefined,
        fingerprint,
        correlationId: options.correlationId ?? commandId,
        causationId: options.causationId ?? null,
        expectedSequence: options.expectedSequence,
        mergeStrategy,
        metadata: options.metadata,
        principal: options.principal,
        authorize,
      }),
    );
    const result = await this.dispatcher.dispatch(stream.aggregateType, aggregateId, execute);
    if (result.duplicate) span.setAttributes({ 'es.command.duplicate': true });
    return result;
  }
}

function commandSpanName(command: object, handler: CommandHandlerDefinition | undefined): string {
  return `command ${handler?.commandType ?? command?.constructor?.name ?? typeof command}`;
}

/** What is known of a command before it is validated; its id, aggregate id and correlation id follow. */
function commandAttributes(handler: CommandHandlerDefinition | undefined, options: SendOptions) {
  return {
    'es.command.type': handler?.commandType,
    'es.aggregate.type': handler?.aggregate.type,
    'es.sync_mode': options.syncMode ?? SyncMode.ASYNC,
    'es.causation_id': options.causationId,
  };
}

/** The target id comes from the options or the command's `@AggregateId()` property; both must agree. */
function resolveAggregateId(handler: CommandHandlerDefinition, command: object, options: SendOptions): string {
  const property = handler.aggregateIdProperty;
  const fromCommand = property ? (command as Record<string, unknown>)[property] : undefined;
  if (options.aggregateId !== undefined) {
    const id = validateId('aggregateId', options.aggregateId);
    if (property && fromCommand !== undefined && fromCommand !== id) {
      throw new InvalidArgumentError(`${handler.commandType}.${property} is '${String(fromCommand)}' but the target aggregate id is '${id}'`);
    }
    if (property) (command as Record<string, unknown>)[property] = id;
    return id;
  }
  if (property) return validateId(`${handler.commandType}.${property}`, fromCommand);
  throw new InvalidArgumentError(`${handler.commandType} names no aggregate: pass options.aggregateId or mark a property with @AggregateId()`);
}
