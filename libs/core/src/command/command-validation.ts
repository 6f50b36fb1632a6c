import { validate, type ValidationError } from 'class-validator';
import { InvalidArgumentError } from '../errors/index.js';
import { MAX_SEQUENCE } from '../model/event-envelope.js';
import { unstorableStringReason } from '../store/storable-value.js';
import type { AggregateDefinition, CommandHandlerDefinition } from '../model/aggregate-definition.js';
import { MergeStrategy, type MergeStrategyName } from '../model/merge-strategy.js';
import type { SendOptions } from '../model/send-options.js';
import { SyncMode } from '../model/send-options.js';

const MAX_ID_LENGTH = 200;

/**
 * class-validator on the command instance; every invalid field is named in the message, once (a
 * non-number is not also reported as too small and too large).
 */
export async function validateCommand(command: object): Promise<void> {
  const errors = await validate(command, { forbidUnknownValues: false });
  if (errors.length > 0) {
    const violations = flatten(errors);
    throw new InvalidArgumentError(`${command.constructor.name} is invalid: ${violations.join('; ')}`, { violations });
  }
}

function flatten(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    // The field's first decorator that failed, as written top-down: decorators register bottom-up,
    // so it is the last one class-validator lists (the type check before the range, say).
    const own = Object.values(error.constraints ?? {})
      .slice(-1)
      .map((text) => (prefix ? `${path}: ${text}` : text));
    return [...own, ...flatten(error.children ?? [], path)];
  });
}

export function validateId(what: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_ID_LENGTH) {
    throw new InvalidArgumentError(`${what} must be a non-empty string of at most ${MAX_ID_LENGTH} characters, got ${describe(value)}`);
  }
  const reason = unstorableStringReason(value);
  if (reason !== null) throw new InvalidArgumentError(`${what} ${reason}`);
  return value;
}

export function validateSendOptions(options: SendOptions): void {
  const { expectedSequence, syncMode, mergeStrategy, syncTimeoutMs } = options;
  if (expectedSequence !== undefined && !isSequence(expectedSequence)) {
    throw new InvalidArgumentError(`expectedSequence must be a whole number from 0 to ${MAX_SEQUENCE}, got ${describe(expectedSequence)}`);
  }
  if (syncMode !== undefined && !Object.values(SyncMode).includes(syncMode)) {
    throw new InvalidArgumentError(`syncMode must be one of ${Object.values(SyncMode).join(', ')}, got ${describe(syncMode)}`);
  }
  if (mergeStrategy !== undefined && typeof mergeStrategy !== 'string') {
    throw new InvalidArgumentError(`mergeStrategy must be the name of a merge strategy, got ${describe(mergeStrategy)}`);
  }
  if (syncTimeoutMs !== undefined && (!Number.isFinite(syncTimeoutMs) || syncTimeoutMs <= 0)) {
    throw new InvalidArgumentError(`syncTimeoutMs must be a positive number, got ${describe(syncTimeoutMs)}`);
  }
  for (const key of ['commandId', 'correlationId', 'causationId'] as const) {
    if (options[key] !== undefined) validateId(key, options[key]);
  }
}

/** A whole number an aggregate's sequence can be (0 = no events yet). */
export function isSequence(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_SEQUENCE;
}

export function describe(value: unknown): string {
  const text = typeof value === 'string' ? `'${value}'` : describeNonString(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** What a caller sent, by kind: an object is never converted (its `toString` is the caller's, and may throw). */
function describeNonString(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return 'an object';
  if (typeof value === 'function') return 'a function';
  return String(value);
}

/**
 * A per-call strategy must be registered, and AGGREGATE_HANDLES needs a `@MergeHandler()` on the
 * target aggregate (declared strategies are checked at boot). Checked on every send, so the answer
 * does not depend on whether this particular call happens to meet a mismatch.
 */
export function assertMergeStrategyUsable(aggregate: AggregateDefinition, strategy: MergeStrategyName | undefined, known: readonly string[]): void {
  if (strategy === undefined) return;
  if (!known.includes(strategy)) {
    throw new InvalidArgumentError(`merge strategy must be one of ${known.join(', ')}, got '${strategy}'`);
  }
  if (strategy === MergeStrategy.AGGREGATE_HANDLES && !aggregate.mergeHandler) {
    throw new InvalidArgumentError(
      `merge strategy aggregate_handles needs a @MergeHandler() method on ${aggregate.classRef.name} (aggregate '${aggregate.type}'), which has none`,
    );
  }
}

/**
 * An outside caller chooses among the strategies the command allows it (its own and STRICT by default): a
 * caller that could pick `manual` for any command could fill the dead-letter table.
 */
export function assertCallerMayChoose(handler: CommandHandlerDefinition, strategy: MergeStrategyName | undefined): void {
  if (strategy === undefined || handler.callerMergeStrategies.has(strategy)) return;
  throw new InvalidArgumentError(
    `${handler.commandType} does not let its caller choose the merge strategy '${strategy}'; it takes ${[...handler.callerMergeStrategies].join(', ')} (callerMergeStrategies of @CommandHandler or @Aggregate)`,
  );
}
