import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { toErrorBody } from './error-body.js';

/** Answers every error with `{statusCode, code, message, ...details}`; never a stack trace. */
@Catch()
export class EventSourcingExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(error: unknown, host: ArgumentsHost): void {
    const body = toErrorBody(error);
    if (body.statusCode >= 500 && body.code === 'INTERNAL') this.logger.error(error instanceof Error ? error.stack : String(error));
    const response = host.switchToHttp().getResponse<Response>();
    response.status(body.statusCode).json(body);
  }
}
