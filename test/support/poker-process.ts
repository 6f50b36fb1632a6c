import { type AppProcess, freePort, startAppProcess, stopAppProcess } from './app-process.js';

export type PokerProcess = AppProcess;

/** `npm start` as built by the jest global setup: the poker app in its own process, resolved once it listens. */
export async function startPokerProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<PokerProcess> {
  const port = await freePort();
  return startAppProcess('dist/apps/poker/src/main.js', { PORT: String(port), DATABASE_URL: databaseUrl, ...env }, /poker listening on/, port);
}

export const stopPokerProcess = (poker: PokerProcess): Promise<void> => stopAppProcess(poker);
