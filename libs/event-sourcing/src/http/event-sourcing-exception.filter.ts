import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { toErrorBody } from './error-body.js';

const RETRY_AFTER_SECONDS = 1;

/** Answers every error with `{statusCode, code, message, ...details}`; never a stack trace. */
@Catch()
export class EventSourcingExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(error: unknown, host: ArgumentsHost): void {
    const body = toErrorBody(error);
    if (body.statusCode >= 500 && body.code === 'INTERNAL') this.logger.error(error instanceof Error ? error.stack : String(error));
    const response = host.switchToHttp().getResponse<Response>();
    // Outages and shutdown are passing: tell clients when to come back.
    if (body.statusCode === 503) response.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    response.status(body.statusCode).json(body);
  }
}
