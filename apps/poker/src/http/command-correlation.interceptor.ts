import { randomUUID } from 'node:crypto';
import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { EVENT_STORE, type EventStore } from '@nest-es/core';
import { handCorrelationId } from '../flows/hand-correlation.js';

const CORRELATION_ID = 'correlation-id';

/**
 * The server, not the client, decides the correlation id of the commands that drive a hand: the hand
 * flow is keyed by it, so a move under any other id (or none) would be stored but never followed,
 * and the table would wait for a flow that never comes. A hand's moves take the hand's correlation
 * id; StartHand always starts a fresh one (a client reusing a running hand's id would start a hand
 * no flow follows). For these commands the client's `Correlation-Id`, if any, is ignored; the
 * other commands keep it, as no flow is keyed by theirs.
 */
@Injectable()
export class CommandCorrelationInterceptor implements NestInterceptor {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<Request>();
    const { aggregateType, aggregateId, commandType } = (request.params ?? {}) as Record<string, string | undefined>;
    const startsHand = aggregateType === 'table' && commandType === 'StartHand';
    if (request.method === 'POST' && request.path.startsWith('/commands/') && (aggregateType === 'hand' || startsHand)) {
      // An id the store could not take is left for the command route to refuse with its message.
      const handId = aggregateType === 'hand' && isId(aggregateId) ? aggregateId : undefined;
      const correlationId = (handId && (await handCorrelationId(this.store, handId))) || randomUUID();
      request.headers[CORRELATION_ID] = correlationId;
      Object.defineProperty(request, 'headersDistinct', { value: { ...request.headersDistinct, [CORRELATION_ID]: [correlationId] }, configurable: true });
    }
    return next.handle();
  }
}

/** An id the store can look up on every database: 1 to 200 characters of valid Unicode, no NUL. */
function isId(value: string | undefined): value is string {
  return value !== undefined && value.length > 0 && value.length <= 200 && !value.includes('\u0000') && Buffer.from(value, 'utf8').toString('utf8') === value;
}
