import type { ServerResponse } from 'node:http';

/**
 * Answers with the framework's error body `{statusCode, code, message}` from middleware that runs
 * before any Nest route (and so before the framework's exception filter): the rate limit and the
 * cross-site checks answer in the same shape as everything else.
 */
export function answerError(response: ServerResponse, statusCode: number, code: string, message: string): void {
  response.statusCode = statusCode;
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.end(JSON.stringify({ statusCode, code, message }));
}
