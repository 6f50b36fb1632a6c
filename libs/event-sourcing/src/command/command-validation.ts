import { validate, type ValidationError } from 'class-validator';
import { InvalidArgumentError } from '../errors/index.js';
import type { SendOptions } from './send-options.js';
import { SyncMode } from './send-options.js';

const MAX_ID_LENGTH = 200;

/** class-validator on the command instance; every violated constraint is named in the message. */
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
    const own = Object.values(error.constraints ?? {}).map((text) => (prefix ? `${path}: ${text}` : text));
    return [...own, ...flatten(error.children ?? [], path)];
  });
}

export function validateId(what: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_ID_LENGTH) {
    throw new InvalidArgumentError(`${what} must be a non-empty string of at most ${MAX_ID_LENGTH} characters, got ${describe(value)}`);
  }
  return value;
}

export function validateSendOptions(options: SendOptions): void {
  const { expectedSequence, syncMode, mergeStrategy, syncTimeoutMs } = options;
  if (expectedSequence !== undefined && (!Number.isSafeInteger(expectedSequence) || expectedSequence < 0)) {
    throw new InvalidArgumentError(`expectedSequence must be a whole number >= 0, got ${describe(expectedSequence)}`);
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

export function describe(value: unknown): string {
  const text = typeof value === 'string' ? `'${value}'` : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
