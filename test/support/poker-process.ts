import { type AppProcess, startAppProcess, stopAppProcess } from './app-process.js';

export type PokerProcess = AppProcess;

/** `npm start` as built by the jest global setup: the poker app in its own process, resolved once it listens. */
export async function startPokerProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<PokerProcess> {
  // PORT=0: the app binds a port the system picks and logs it, so no other socket can take it first.
  return startAppProcess('dist/apps/poker/src/main.js', { PORT: '0', DATABASE_URL: databaseUrl, ...env }, /poker listening on http:\/\/localhost:(\d+)/);
}

export const stopPokerProcess = (poker: PokerProcess): Promise<void> => stopAppProcess(poker);
