import { parseDatabaseUrl, type StoreOptions } from '@nest-es/typeorm';
import { type NatsJetStreamOptions } from '@nest-es/nats';
import { type ScaleOutOptions } from '@nest-es/core';
import type { PokerAuthOptions } from './auth/poker-auth-options.js';

export interface PokerConfig {
  port: number;
  databaseUrl: string;
  store: StoreOptions;
  auth: PokerAuthOptions;
  requestsPerMinute?: number;
  /** Origins besides the server's own allowed to send state-changing requests (behind a proxy that rewrites Host). */
  allowedOrigins?: string[];
  /** Several instances on one PostgreSQL database share the subscribers' work (docs/scaling.md). */
  scaleOut?: ScaleOutOptions;
  /** Committed events out to NATS JetStream. */
  nats?: NatsJetStreamOptions;
}

export const DEFAULT_DATABASE_URL = 'sqlite:data/poker.sqlite';

/**
 * PORT (default 3000), DATABASE_URL (default a SQLite file under ./data/), and for security (see
 * docs/security.md): POKER_AUTH_SECRET (signs player tokens; default random, so tokens end with the
 * process), POKER_TOKEN_TTL_SECONDS, POKER_ADMIN_TOKEN (mounts the dead-letter routes behind it),
 * POKER_SEEDED_DEALS=true (lets StartHand choose the deck seed: demos and tests only),
 * POKER_REQUESTS_PER_MINUTE (per client address, over every route), POKER_ALLOWED_ORIGINS (comma-separated
 * origins, besides the server's own, that may send state-changing requests). To run several instances (docs/scaling.md):
 * POKER_SCALE_OUT_PARTITIONS (turns scale-out on; PostgreSQL only), POKER_REBALANCE_INTERVAL_MS;
 * NATS_URL (turns the JetStream publisher on) with POKER_NATS_STREAM (default POKER_EVENTS).
 */
export function loadPokerConfig(env: NodeJS.ProcessEnv = process.env): PokerConfig {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got '${env.PORT}'`);
  const databaseUrl = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const auth: PokerAuthOptions = {};
  if (env.POKER_AUTH_SECRET) {
    if (env.POKER_AUTH_SECRET.length < 32) throw new Error('POKER_AUTH_SECRET must be at least 32 characters');
    auth.secret = env.POKER_AUTH_SECRET;
  }
  if (env.POKER_TOKEN_TTL_SECONDS) auth.tokenTtlSeconds = positive('POKER_TOKEN_TTL_SECONDS', env.POKER_TOKEN_TTL_SECONDS);
  if (env.POKER_ADMIN_TOKEN) auth.adminToken = env.POKER_ADMIN_TOKEN;
  if (env.POKER_SEEDED_DEALS === 'true') auth.seededDeals = true;
  const config: PokerConfig = { port, databaseUrl, store: parseDatabaseUrl(databaseUrl), auth };
  if (env.POKER_REQUESTS_PER_MINUTE) config.requestsPerMinute = positive('POKER_REQUESTS_PER_MINUTE', env.POKER_REQUESTS_PER_MINUTE);
  if (env.POKER_ALLOWED_ORIGINS) config.allowedOrigins = env.POKER_ALLOWED_ORIGINS.split(',').map((origin) => webOrigin('POKER_ALLOWED_ORIGINS', origin.trim()));
  if (env.POKER_SCALE_OUT_PARTITIONS) {
    if (!('type' in config.store) || config.store.type !== 'postgres') throw new Error('POKER_SCALE_OUT_PARTITIONS needs a PostgreSQL DATABASE_URL: instances share a SQLite file only one at a time');
    config.scaleOut = { partitions: positive('POKER_SCALE_OUT_PARTITIONS', env.POKER_SCALE_OUT_PARTITIONS) };
    if (env.POKER_REBALANCE_INTERVAL_MS) config.scaleOut.rebalanceIntervalMs = positive('POKER_REBALANCE_INTERVAL_MS', env.POKER_REBALANCE_INTERVAL_MS);
  }
  if (env.NATS_URL) config.nats = { servers: env.NATS_URL.split(','), publisher: { stream: env.POKER_NATS_STREAM || 'POKER_EVENTS', subjectPrefix: 'poker' } };
  return config;
}

/** `scheme://host[:port]` as browsers send it in `Origin`. */
function webOrigin(name: string, value: string): string {
  const origin = URL.canParse(value) ? new URL(value).origin : 'null';
  if (origin === 'null') throw new Error(`${name} must list origins such as https://poker.example.com, got '${value}'`);
  return origin;
}

function positive(name: string, value: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number <= 0) throw new Error(`${name} must be a whole number > 0, got '${value}'`);
  return number;
}

/** The URL with any password hidden, for the start-up line. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}
