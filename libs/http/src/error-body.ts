import { HttpException } from '@nestjs/common';
import { ErrorCode } from '@nest-es/core';
import { HTTP_STATUS_BY_CODE } from '@nest-es/core/internal';
import { EventSourcingError } from '@nest-es/core';
import { isStoreUnavailableError } from '@nest-es/core/internal';
import type { HttpRequest } from './http-request.js';

export interface ErrorBody {
  statusCode: number;
  code: string;
  message: string;
  [detail: string]: unknown;
}

/**
 * Maps anything thrown while serving a request to the one error body `{statusCode, code, message,
 * ...details}`, never a stack trace.
 * The body parsers' failures arrive here too (they happen before any route runs): Express's
 * body-parser and Fastify's content-type parsers get the same answers.
 */
export function toErrorBody(error: unknown, request?: HttpRequest): ErrorBody {
  if (error instanceof EventSourcingError) {
    return { ...error.details, statusCode: HTTP_STATUS_BY_CODE[error.code], code: error.code, message: error.message };
  }
  // Nest wraps body-parser's errors in an HttpException and keeps the original as its cause.
  const parserError = ((error as { cause?: unknown })?.cause ?? error) as { type?: string; length?: number; limit?: number; message?: string };
  if (parserError?.type === 'entity.parse.failed') {
    return invalid(`malformed JSON body: ${parserError.message}`);
  }
  if (parserError?.type === 'entity.too.large') {
    return invalid(`request body of ${parserError.length} bytes is larger than the limit of ${parserError.limit} bytes`);
  }
  const fastify = fastifyRefusal(parserError, request);
  if (fastify) return fastify;
  if (isStoreUnavailableError(error)) {
    return {
      statusCode: HTTP_STATUS_BY_CODE[ErrorCode.UNAVAILABLE],
      code: ErrorCode.UNAVAILABLE,
      message: 'the database is unreachable or not answering; retry shortly',
    };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const given = (error.getResponse() as { code?: unknown }).code;
    const code = typeof given === 'string' ? given : (CODE_BY_STATUS.get(status) ?? (status < 500 ? ErrorCode.INVALID_ARGUMENT : 'INTERNAL'));
    return { statusCode: status, code, message: messageOf(error) };
  }
  return { statusCode: 500, code: 'INTERNAL', message: 'internal error; the server log has the details' };
}

/**
 * Nest's own exceptions (a guard returning false is a 403 ForbiddenException, @nestjs/throttler's
 * is a 429) get the code their status has in the error model. 409 is left out: two codes share it.
 */
const CODE_BY_STATUS = new Map<number, ErrorCode>(
  (Object.entries(HTTP_STATUS_BY_CODE) as Array<[ErrorCode, number]>)
    .filter(([code]) => code !== ErrorCode.ABORTED && code !== ErrorCode.FAILED_PRECONDITION)
    .map(([code, status]) => [status, code]),
);

/** Fastify's refusals of a request before any route runs, answered as Express's are. */
function fastifyRefusal(error: unknown, request: HttpRequest | undefined): ErrorBody | undefined {
  switch ((error as { code?: unknown } | null)?.code) {
    case 'FST_ERR_BAD_URL':
      return invalid(`malformed URL: ${(error as Error).message}`);
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return invalid(`malformed JSON body: ${(error as Error).message}`);
    case 'FST_ERR_CTP_BODY_TOO_LARGE': {
      const length = request?.headers['content-length'];
      const limit = (request as { routeOptions?: { bodyLimit?: number } } | undefined)?.routeOptions?.bodyLimit;
      return invalid(`request body${length ? ` of ${length} bytes` : ''} is larger than the limit${limit ? ` of ${limit} bytes` : ''}`);
    }
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return invalid('the request body does not match its Content-Length');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        statusCode: HTTP_STATUS_BY_CODE[ErrorCode.UNSUPPORTED_MEDIA_TYPE],
        code: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
        message: `no body of type ${request?.headers['content-type'] ?? 'unknown'} is taken here`,
      };
    default:
      return undefined;
  }
}

function invalid(message: string): ErrorBody {
  return { statusCode: HTTP_STATUS_BY_CODE[ErrorCode.INVALID_ARGUMENT], code: ErrorCode.INVALID_ARGUMENT, message };
}

function messageOf(error: HttpException): string {
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  return Array.isArray(message) ? message.join('; ') : String(message ?? error.message);
}
