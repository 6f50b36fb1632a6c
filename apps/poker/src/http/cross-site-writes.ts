import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerError } from './error-answer.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses what a foreign page can make a browser send without asking first (a form post, a
 * `text/plain` fetch: no CORS preflight), before any body parser or route runs:
 * - a state-changing request (any method but GET, HEAD, OPTIONS) whose `Origin` is not this server's
 *   (the `Host` it was sent to) nor one of `allowedOrigins`: 403 PERMISSION_DENIED. Browsers send
 *   `Origin` on every such request; clients that send none (curl, the bots, the demo) are let through.
 * - such a request with a body that is not `application/json`: 415 UNSUPPORTED_MEDIA_TYPE, as the
 *   framework's command route answers; a body-less POST (`/tables/:id/bots/act`) needs no type.
 */
export function crossSiteWrites(allowedOrigins: readonly string[] = []): (request: IncomingMessage, response: ServerResponse, next: () => void) => void {
  const allowed = new Set(allowedOrigins.map((origin) => new URL(origin).origin));
  return (request, response, next) => {
    if (SAFE_METHODS.has(request.method ?? 'GET')) return next();
    const origin = request.headers.origin;
    if (origin !== undefined && !sameOrigin(origin, request.headers.host) && !allowed.has(origin)) {
      return answerError(response, 403, 'PERMISSION_DENIED', `requests that change state are not accepted from the origin ${JSON.stringify(origin)}`);
    }
    const contentType = request.headers['content-type'];
    if (hasBody(request) && !isJson(contentType)) {
      return answerError(response, 415, 'UNSUPPORTED_MEDIA_TYPE', `the body must be application/json, got ${contentType ?? 'no Content-Type'}`);
    }
    next();
  };
}

/** Whether `origin` names the host the request was sent to ('null', from sandboxes and files, never does). */
function sameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined || !URL.canParse(origin)) return false;
  return new URL(origin).host === host.toLowerCase();
}

function hasBody(request: IncomingMessage): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}

/** `application/json`, any case, any parameters (the framework's rule: `+json` types are not commands). */
function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.split(';')[0].trim().toLowerCase() === 'application/json';
}
