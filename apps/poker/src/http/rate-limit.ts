import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerError } from './error-answer.js';

/** Requests per client address per minute. The web page polls about 450 while a hand runs. */
export const DEFAULT_REQUESTS_PER_MINUTE = 600;

const WINDOW_MS = 60_000;

interface Window {
  count: number;
  endsAt: number;
}

/**
 * ONE limit per client address over every request the app answers: the page, its static files,
 * Swagger and the API alike (429 RESOURCE_EXHAUSTED past it, with Retry-After). Connect-style
 * middleware ahead of everything else, since a Nest guard sees only the controllers' routes and
 * counted each route apart. A window of a minute opens at an address's first request; addresses whose
 * window has ended are forgotten once a minute, so the map holds only the last minute's clients. The
 * address is the socket's remote address, the direct peer: behind a proxy, the proxy's.
 */
export function rateLimit(requestsPerMinute: number, now: () => number = Date.now): (request: IncomingMessage, response: ServerResponse, next: () => void) => void {
  const windows = new Map<string, Window>();
  let sweepAt = now() + WINDOW_MS;
  return (request, response, next) => {
    const time = now();
    if (time >= sweepAt) {
      for (const [address, window] of windows) if (window.endsAt <= time) windows.delete(address);
      sweepAt = time + WINDOW_MS;
    }
    const address = request.socket.remoteAddress ?? 'unknown';
    let window = windows.get(address);
    if (!window || window.endsAt <= time) {
      window = { count: 0, endsAt: time + WINDOW_MS };
      windows.set(address, window);
    }
    if (++window.count <= requestsPerMinute) return next();
    response.setHeader('Retry-After', String(Math.max(1, Math.ceil((window.endsAt - time) / 1000))));
    answerError(response, 429, 'RESOURCE_EXHAUSTED', `more than ${requestsPerMinute} requests a minute from this address; try again later`);
  };
}
