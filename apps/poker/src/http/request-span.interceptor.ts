import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';

const tracer = trace.getTracer('poker-http');

/**
 * A server span per request the poker app routes (`POST /tables/:tableId/buy-in`), child of the
 * caller's `traceparent`: the framework's command spans open under it, so a trace begins at the
 * request. (An HTTP instrumentation would do this for any Node server, but in an ES-module app it
 * needs loader hooks.) Without an SDK registered the API makes this a no-op.
 */
@Injectable()
export class RequestSpanInterceptor implements NestInterceptor {
  intercept(execution: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (execution.getType() !== 'http') return next.handle();
    const request = execution.switchToHttp().getRequest<FastifyRequest>();
    const response = execution.switchToHttp().getResponse<FastifyReply>().raw;
    const route = request.routeOptions.url ?? request.url;
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = tracer.startSpan(`${request.method} ${route}`, { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, 'http.route': route } }, parent);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      span.setAttribute('http.response.status_code', response.statusCode);
      if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    // The error filter answers after the handler failed: the span ends with the answer, whatever it is.
    response.once('finish', end);
    response.once('close', end);
    const active = trace.setSpan(parent, span);
    // Nest binds the handler to the async context of `handle()`: call it, and subscribe, under the span.
    return new Observable((subscriber) => context.with(active, () => next.handle().subscribe(subscriber)));
  }
}
