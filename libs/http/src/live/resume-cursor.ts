import { MAX_SEQUENCE } from '@nest-es/core/internal';
import { wholeNumber } from '../paging.js';
import type { HttpRequest } from '../http-request.js';

/**
 * The sequence a live stream starts after: the `Last-Event-ID` a reconnecting EventSource sends, else
 * `?after=` (for clients that cannot set headers), else 0 (from the first event). The header wins: a
 * browser reconnects to the same URL, `after` included, and the header says how far it got since.
 */
export function resumeCursor(request: HttpRequest, after: unknown): number {
  const lastEventId = request.headers['last-event-id'];
  if (lastEventId !== undefined) return wholeNumber('Last-Event-ID', lastEventId, 0, MAX_SEQUENCE);
  return after === undefined ? 0 : wholeNumber('after', after, 0, MAX_SEQUENCE);
}
