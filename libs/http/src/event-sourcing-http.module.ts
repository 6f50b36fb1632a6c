import { type DynamicModule, Inject, type MiddlewareConsumer, Module, type NestModule, Optional, type Provider } from '@nestjs/common';
import { APP_FILTER, HttpAdapterHost } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import cors from 'cors';
import helmet from 'helmet';
import { COMMAND_AUTHORIZER, NoopTracing, Tracing } from '@nest-es/core/internal';
import { AggregateController } from './aggregate.controller.js';
import { ClientErrorResponder } from './client-error-responder.js';
import { CommandController } from './command.controller.js';
import { ConfiguredGuards, EventSourcingAdminGuard, EventSourcingGuard } from './configured-guards.js';
import { DeadLetterController } from './dead-letter.controller.js';
import { EventSourcingExceptionFilter } from './event-sourcing-exception.filter.js';
import { HealthController } from './health.controller.js';
import { EVENT_SOURCING_HTTP_OPTIONS, type EventSourcingHttpOptions } from './http-options.js';
import { MetricsController } from './metrics.controller.js';
import { type RequestMiddleware, runInFastifyHook } from './request-middleware.js';

/**
 * The framework's HTTP routes beside `EventSourcingModule`: commands, aggregate reads, dead letters,
 * health and metrics. `EventSourcingHttpModule.forRoot({guards, authorizer, aggregateReads, adminGuard})`.
 */
@Module({})
export class EventSourcingHttpModule implements NestModule {
  constructor(
    private readonly tracing: Tracing,
    @Inject(EVENT_SOURCING_HTTP_OPTIONS) private readonly http: EventSourcingHttpOptions,
    @Optional() private readonly adapterHost?: HttpAdapterHost,
  ) {}

  /**
   * An incoming `traceparent`, then security headers and the CORS policy.
   * On Fastify in a request hook of its own: Nest's middleware there goes through an Express layer.
   */
  configure(consumer: MiddlewareConsumer): void {
    const middleware = this.requestMiddleware();
    if (middleware.length === 0) return;
    const adapter = this.adapterHost?.httpAdapter;
    if (adapter?.getType() === 'fastify') runInFastifyHook(adapter.getInstance(), middleware);
    else consumer.apply(...middleware).forRoutes('{*path}');
  }

  private requestMiddleware(): RequestMiddleware[] {
    const middleware: RequestMiddleware[] = [];
    if (!(this.tracing instanceof NoopTracing)) middleware.push((request, _response, next) => this.tracing.continueFrom(request.headers, next));
    if (this.http.helmet !== false) middleware.push(helmet(this.http.helmet));
    if (this.http.cors) middleware.push(cors(this.http.cors as cors.CorsOptions));
    return middleware;
  }

  static forRoot(options: EventSourcingHttpOptions = {}): DynamicModule {
    const controllers = [
      CommandController,
      ...(options.aggregateReads ? [AggregateController] : []),
      ...(options.adminGuard ? [DeadLetterController] : []),
      HealthController,
      MetricsController,
    ];
    const providers: Provider[] = [
      { provide: EVENT_SOURCING_HTTP_OPTIONS, useValue: options },
      { provide: APP_FILTER, useClass: EventSourcingExceptionFilter },
      ClientErrorResponder,
      ConfiguredGuards,
      EventSourcingGuard,
      EventSourcingAdminGuard,
      ...(options.authorizer ? [{ provide: COMMAND_AUTHORIZER, useClass: options.authorizer }] : []),
    ];
    return {
      module: EventSourcingHttpModule,
      // Global so that the core's command path sees the authorizer.
      global: true,
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers,
      providers,
      exports: options.authorizer ? [COMMAND_AUTHORIZER] : [],
    };
  }
}
