import { createHash } from 'node:crypto';
import { InvalidArgumentError } from '../errors/index.js';
import { stableJson } from './stable-json.js';

/**
 * What a command is, as a short hash: its type and its fields in a key order that does not depend on
 * how the caller built the object. Kept with a caller-given command id, so that the id repeated with
 * the same command is a retry and repeated with another command is a mistake (ALREADY_EXISTS).
 */
export function commandFingerprint(commandType: string, command: object): string {
  let payload: string;
  try {
    // A cycle throws, and is refused below.
    payload = stableJson(command) ?? '';
  } catch (error) {
    throw new InvalidArgumentError(`${commandType} cannot be written as JSON: ${(error as Error).message}`);
  }
  return createHash('sha256').update(commandType).update('\u0000').update(payload).digest('base64url');
}
