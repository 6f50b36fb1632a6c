import { type DynamicModule, Inject, type MiddlewareConsumer, Module, type NestModule, type OnModuleInit, Optional, type Provider, type Type } from '@nestjs/common';
import { APP_FILTER, HttpAdapterHost, ModuleRef } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import cors from 'cors';
import helmet from 'helmet';
import { COMMAND_AUTHORIZER, NoopTracing, Tracing } from '@nest-es/core/internal';
import { AggregateController } from './aggregate.controller.js';
import { ClientErrorResponder } from './client-error-responder.js';
import { CommandController } from './command.controller.js';
import { ConfiguredGuards, EventSourcingAdminGuard, EventSourcingGuard } from './configured-guards.js';
import { DeadLetterController } from './dead-letter.controller.js';
import { consoleControllers } from './console/console-controllers.js';
import { consolePath } from './console/console-path.js';
import { ConsoleSubscribersFeed } from './console/console-subscribers-feed.js';
import { EventSourcingExceptionFilter, replyWithErrorBody } from './event-sourcing-exception.filter.js';
import { answerUnroutedOnExpress } from './express-scope.js';
import { scopeToFrameworkOnFastify } from './fastify-scope.js';
import { FrameworkRoutes } from './framework-routes.js';
import { HealthController } from './health.controller.js';
import { LiveAggregateEventsController } from './live/live-aggregate-events.controller.js';
import { LiveEventWatcher } from './live/live-event-watcher.js';
import { EVENT_SOURCING_HTTP_OPTIONS, type EventSourcingHttpOptions } from './http-options.js';
import type { HttpRequest } from './http-request.js';
import { MetricsController } from './metrics.controller.js';
import { type RequestMiddleware, runInFastifyHook } from './request-middleware.js';
import { RequestsInFlight } from './requests-in-flight.js';

/**
 * The framework's HTTP routes beside `EventSourcingModule`: commands, aggregate reads, dead letters,
 * health and metrics. `EventSourcingHttpModule.forRoot({guards, authorizer, aggregateReads, adminGuard, appWide})`.
 * Its error answers, security headers, CORS and trace context are its routes' only, unless `appWide`.
 */
@Module({})
export class EventSourcingHttpModule implements NestModule, OnModuleInit {
  constructor(
    private readonly tracing: Tracing,
    @Inject(EVENT_SOURCING_HTTP_OPTIONS) private readonly http: EventSourcingHttpOptions,
    private readonly moduleRef: ModuleRef,
    @Optional() private readonly adapterHost?: HttpAdapterHost,
  ) {}

  /**
   * An incoming `traceparent`, then security headers and the CORS policy, for requests under the
   * framework's paths (every request with `appWide`). On Fastify in a request hook of its own:
   * Nest's middleware there goes through an Express layer.
   */
  configure(consumer: MiddlewareConsumer): void {
    const middleware = this.requestMiddleware();
    const adapter = this.adapterHost?.httpAdapter;
    if (adapter?.getType() === 'fastify') {
      if (this.http.appWide) runInFastifyHook(adapter.getInstance(), middleware);
      else scopeToFrameworkOnFastify(adapter.getInstance(), this.routes(), middleware, (error, request, reply) => this.answer(error, request, reply));
    } else if (middleware.length > 0) {
      if (this.http.appWide) consumer.apply(...middleware).forRoutes('{*path}');
      else consumer.apply(...middleware).forRoutes(...this.routes().routeInfos());
    }
  }

  /** After the routes, before Nest's own 404 and error handlers (Express runs its layers in that order). */
  onModuleInit(): void {
    const adapter = this.adapterHost?.httpAdapter;
    if (this.http.appWide || adapter?.getType() !== 'express') return;
    answerUnroutedOnExpress(adapter.getInstance(), this.routes(), (error, request, response) => this.answer(error, request, response));
  }

  private routes(): FrameworkRoutes {
    return FrameworkRoutes.of(frameworkControllers(this.http), this.moduleRef);
  }

  /** The filter's answer; an adapter's own errors (a body parser's) first become Nest's HTTP exceptions, as for Nest's handlers. */
  private answer(error: unknown, request: HttpRequest, response: unknown): void {
    const adapter = this.adapterHost!.httpAdapter;
    replyWithErrorBody(adapter, adapter.mapException?.(error) ?? error, request, response);
  }

  private requestMiddleware(): RequestMiddleware[] {
    const middleware: RequestMiddleware[] = [];
    if (!(this.tracing instanceof NoopTracing)) middleware.push((request, _response, next) => this.tracing.continueFrom(request.headers, next));
    if (this.http.helmet !== false) middleware.push(helmet(this.http.helmet));
    if (this.http.cors) middleware.push(cors(this.http.cors as cors.CorsOptions));
    return middleware;
  }

  static forRoot(options: EventSourcingHttpOptions = {}): DynamicModule {
    const providers: Provider[] = [
      { provide: EVENT_SOURCING_HTTP_OPTIONS, useValue: options },
      ...(options.appWide ? [{ provide: APP_FILTER, useClass: EventSourcingExceptionFilter }, ClientErrorResponder] : []),
      RequestsInFlight,
      ConfiguredGuards,
      EventSourcingGuard,
      EventSourcingAdminGuard,
      ...(options.aggregateReads ? [LiveEventWatcher] : []),
      ...(consolePath(options) !== undefined ? [ConsoleSubscribersFeed] : []),
      ...(options.authorizer ? [{ provide: COMMAND_AUTHORIZER, useClass: options.authorizer }] : []),
    ];
    return {
      module: EventSourcingHttpModule,
      // Global so that the core's command path sees the authorizer.
      global: true,
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: frameworkControllers(options),
      providers,
      exports: options.authorizer ? [COMMAND_AUTHORIZER] : [],
    };
  }
}

function frameworkControllers(options: EventSourcingHttpOptions): Type[] {
  return [
    CommandController,
    ...(options.aggregateReads ? [AggregateController, LiveAggregateEventsController] : []),
    ...(options.adminGuard ? [DeadLetterController] : []),
    // Throws when the console is asked for without an admin guard: its routes must never be open.
    ...consoleControllers(options),
    HealthController,
    MetricsController,
  ];
}
