import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { toErrorBody } from './error-body.js';

const RETRY_AFTER_SECONDS = 1;

/** Answers every error with `{statusCode, code, message, ...details}`; never a stack trace. On either HTTP adapter. */
@Catch()
export class EventSourcingExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const body = toErrorBody(error, http.getRequest());
    if (body.statusCode >= 500 && body.code === 'INTERNAL') this.logger.error(error instanceof Error ? error.stack : String(error));
    const adapter = this.adapterHost.httpAdapter;
    const response: unknown = http.getResponse();
    // Outages and shutdown are passing: tell clients when to come back.
    if (body.statusCode === 503) adapter.setHeader(response, 'Retry-After', String(RETRY_AFTER_SECONDS));
    adapter.reply(response, body, body.statusCode);
  }
}
