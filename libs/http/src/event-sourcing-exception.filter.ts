import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import { type AbstractHttpAdapter, HttpAdapterHost } from '@nestjs/core';
import { toErrorBody } from './error-body.js';
import type { HttpRequest } from './http-request.js';

const RETRY_AFTER_SECONDS = 1;
const logger = new Logger('HTTP');

/**
 * Answers every error with `{statusCode, code, message, ...details}`; never a stack trace. On either
 * HTTP adapter. On the framework's controllers (`@UseFilters`); for the whole app only with `appWide`.
 */
@Catch()
export class EventSourcingExceptionFilter implements ExceptionFilter {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    replyWithErrorBody(this.adapterHost.httpAdapter, error, http.getRequest(), http.getResponse());
  }
}

/** The filter's answer, also given where no filter runs: 404s and body parser errors under the framework's paths. */
export function replyWithErrorBody(adapter: AbstractHttpAdapter, error: unknown, request: HttpRequest, response: unknown): void {
  const body = toErrorBody(error, request);
  if (body.statusCode >= 500 && body.code === 'INTERNAL') logger.error(error instanceof Error ? error.stack : String(error));
  // Outages and shutdown are passing: tell clients when to come back.
  if (body.statusCode === 503) adapter.setHeader(response, 'Retry-After', String(RETRY_AFTER_SECONDS));
  adapter.reply(response, body, body.statusCode);
}
