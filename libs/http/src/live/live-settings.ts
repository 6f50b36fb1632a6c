import { InvalidArgumentError } from '@nest-es/core';
import type { LiveEventsOptions } from '../http-options.js';

/** The live stream options with their defaults filled in. */
export type LiveSettings = Required<LiveEventsOptions>;

const DEFAULTS: LiveSettings = { maxStreams: 1000, heartbeatMs: 15_000, pollMs: 1000 };

/** The options with defaults; a bound that is not a positive whole number fails at boot rather than at the first client. */
export function liveSettings(options: LiveEventsOptions | undefined): LiveSettings {
  const settings = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options ?? {}).filter(([, value]) => value !== undefined)) };
  for (const [name, value] of Object.entries(settings)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new InvalidArgumentError(`http.live.${name} must be a whole number of at least 1; got ${String(value)}`);
  }
  return settings;
}
