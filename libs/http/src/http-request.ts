import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/**
 * What the framework's routes read from a request, on either HTTP adapter: Express's request is
 * Node's IncomingMessage itself, Fastify's wraps it as `raw`. A guard's principal is on `user`.
 */
export interface HttpRequest {
  headers: IncomingHttpHeaders;
  raw?: IncomingMessage;
  user?: unknown;
}

/** Node's IncomingMessage under the adapter's request. */
export function incomingMessageOf(request: HttpRequest): IncomingMessage {
  return request.raw ?? (request as IncomingMessage);
}

/**
 * True for an `application/json` media type (any case, any parameters such as a charset), the one
 * type commands take; `+json` suffixes and other types are not JSON commands.
 */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const end = contentType.indexOf(';');
  return (end < 0 ? contentType : contentType.slice(0, end)).trim().toLowerCase() === 'application/json';
}
