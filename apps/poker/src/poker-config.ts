import { parseDatabaseUrl, type StoreOptions } from '@nest-es/core';

export interface PokerConfig {
  port: number;
  databaseUrl: string;
  store: StoreOptions;
}

export const DEFAULT_DATABASE_URL = 'sqlite:data/poker.sqlite';

/** PORT (default 3000) and DATABASE_URL (default a SQLite file under ./data/). */
export function loadPokerConfig(env: NodeJS.ProcessEnv = process.env): PokerConfig {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got '${env.PORT}'`);
  const databaseUrl = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  return { port, databaseUrl, store: parseDatabaseUrl(databaseUrl) };
}

/** The URL with any password hidden, for the start-up line. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}
