import { InvalidArgumentError } from '@nest-es/core';
import { normalizeMergeStrategy } from '@nest-es/core/internal';
import { parseSyncMode } from '@nest-es/core/internal';
import { type SendOptions } from '@nest-es/core';
import { describe } from '@nest-es/core/internal';
import { MAX_SEQUENCE } from '@nest-es/core/internal';

type Headers = Record<string, string | string[] | undefined>;

/**
 * Reads the command headers (Command-Id, Correlation-Id, Expected-Sequence, Sync-Mode, Merge-Strategy); values are case-insensitive, unknown ones refused.
 * Pass the request's `headersDistinct`: Node joins a repeated header into one "a, b" string, which
 * would pass for a single Command-Id; a header given twice is refused instead.
 */
export function sendOptionsFromHeaders(headers: Headers): SendOptions {
  const options: SendOptions = {};
  const commandId = single(headers, 'command-id');
  if (commandId !== undefined) options.commandId = commandId;
  const correlationId = single(headers, 'correlation-id');
  if (correlationId !== undefined) options.correlationId = correlationId;
  const expected = single(headers, 'expected-sequence');
  if (expected !== undefined) {
    if (!/^\d{1,10}$/.test(expected.trim()) || Number(expected.trim()) > MAX_SEQUENCE) {
      throw new InvalidArgumentError(`Expected-Sequence must be a whole number from 0 to ${MAX_SEQUENCE}, got ${describe(expected)}`);
    }
    options.expectedSequence = Number(expected.trim());
  }
  const syncMode = single(headers, 'sync-mode');
  if (syncMode !== undefined) {
    options.syncMode = parseSyncMode(syncMode);
    if (!options.syncMode) throw new InvalidArgumentError(`Sync-Mode must be async, simple or cascade, got ${describe(syncMode)}`);
  }
  const merge = single(headers, 'merge-strategy');
  if (merge !== undefined) {
    // Any name is taken here: the gateway knows the registered strategies and refuses the others.
    options.mergeStrategy = normalizeMergeStrategy(merge);
  }
  return options;
}

function single(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  if (!Array.isArray(value)) return value;
  if (value.length !== 1) throw new InvalidArgumentError(`header ${name} was given ${value.length} times; give it once`);
  return value[0];
}
