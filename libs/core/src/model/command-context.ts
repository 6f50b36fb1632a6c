import type { Principal } from './principal.js';

/** What a command handler knows besides the command and the state. */
export interface CommandContext {
  aggregateType: string;
  aggregateId: string;
  /** The aggregate's sequence the handler decides on (0 = no events yet). */
  sequence: number;
  commandId: string;
  correlationId: string;
  /** One clock reading per command, so handlers stay deterministic on re-runs. */
  now: Date;
  /** Who sent the command, when an outside caller did (HTTP, or code passing `principal`). */
  principal?: Principal;
}
