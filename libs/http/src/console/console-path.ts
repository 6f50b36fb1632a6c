import { InvalidArgumentError } from '@nest-es/core';
import type { EventSourcingHttpOptions } from '../http-options.js';

export const DEFAULT_CONSOLE_PATH = '/console';

/** Plain path segments only: the path becomes a route and part of the page's links. */
const SEGMENTS = /^(\/[A-Za-z0-9._~-]+)+$/;

/**
 * The console's path, or undefined when it is not mounted. A console without `adminGuard` fails the
 * boot: its routes show every subscriber, stream and letter, and would otherwise be open to anyone.
 */
export function consolePath(options: EventSourcingHttpOptions): string | undefined {
  if (!options.console) return undefined;
  if (!options.adminGuard) {
    throw new InvalidArgumentError('http.console needs http.adminGuard: every route of the operator console is behind it; add one (a guard that lets only operators in)');
  }
  const path = options.console.path ?? DEFAULT_CONSOLE_PATH;
  if (typeof path !== 'string' || !SEGMENTS.test(path)) {
    throw new InvalidArgumentError(`http.console.path must be a path such as '/console' (segments of letters, digits, '.', '_', '~', '-'), got ${JSON.stringify(path)}`);
  }
  return path;
}
