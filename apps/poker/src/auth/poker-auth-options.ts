/** How players authenticate in the poker app (see docs/security.md). */
export interface PokerAuthOptions {
  /** HMAC secret the player tokens are signed with. Default: random per process (tokens end with it). */
  secret?: string;
  /** How long a token holds, in seconds. Default 12 hours. */
  tokenTtlSeconds?: number;
  /** Operator token for the dead-letter routes; without one they are not mounted. */
  adminToken?: string;
  /** Whether StartHand may carry a deck seed (reproducible deals for tests and the demo). Default false. */
  seededDeals?: boolean;
}

export const POKER_AUTH_OPTIONS = Symbol('POKER_AUTH_OPTIONS');

export const DEFAULT_TOKEN_TTL_SECONDS = 12 * 60 * 60;
