import { type DynamicModule, Inject, type MiddlewareConsumer, Module, type ModuleMetadata, type NestModule, Optional, type Provider } from '@nestjs/common';
import cors from 'cors';
import helmet from 'helmet';
import { APP_FILTER, DiscoveryModule, HttpAdapterHost } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import type { DataSource } from 'typeorm';
import { AggregateLoader } from '../command/aggregate-loader.js';
import { AggregateReader } from '../command/aggregate-reader.js';
import { CommandExecutor } from '../command/command-executor.js';
import { CommandGateway } from '../command/command-gateway.js';
import { EventAppender } from '../command/event-appender.js';
import { CommandDeadLetterRetrier } from '../dead-letter/command-retrier.js';
import { DeadLetterService } from '../dead-letter/dead-letter.service.js';
import { AggregateExplorer } from '../discovery/aggregate-explorer.js';
import { SubscriberExplorer } from '../discovery/subscriber-explorer.js';
import { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import { COMMAND_AUTHORIZER } from '../model/command-authorizer.js';
import { ConfiguredGuards, EventSourcingAdminGuard, EventSourcingGuard } from '../http/configured-guards.js';
import { AggregateController } from '../http/aggregate.controller.js';
import { ClientErrorResponder } from '../http/client-error-responder.js';
import { CommandController } from '../http/command.controller.js';
import { DeadLetterController } from '../http/dead-letter.controller.js';
import { EventSourcingExceptionFilter } from '../http/event-sourcing-exception.filter.js';
import { HealthController } from '../http/health.controller.js';
import { MetricsController } from '../http/metrics.controller.js';
import { type RequestMiddleware, runInFastifyHook } from '../http/request-middleware.js';
import { createPrometheusMetrics, MetricsService, NoopMetricsService } from '../runtime/metrics.service.js';
import { createTracing, NoopTracing, Tracing } from '../runtime/tracing.js';
import { MergeInterceptors } from '../merge/merge-interceptors.js';
import { MergeResolver } from '../command/merge-resolver.js';
import { AdmissionGate } from '../runtime/admission-gate.js';
import { EventSourcingLifecycle } from './event-sourcing-lifecycle.js';
import { AggregateDispatcher, DEFAULT_COMMAND_LANES, DEFAULT_PARALLELISM, DefaultAggregateSchedulerSupplier, type AggregateSchedulerSupplier } from '../scheduling/index.js';
import { EmissionSender } from '../processing/emission-sender.js';
import { EventDeadLetterRetrier } from '../processing/event-dead-letter-retrier.js';
import { EventProcessor } from '../processing/event-processor.js';
import { FactAppender } from '../processing/fact-appender.js';
import { EventTypeCensus } from '../maintenance/event-type-census.js';
import { ProjectionRebuilder } from '../maintenance/projection-rebuilder.js';
import { SyncWaiter } from '../command/sync-waiter.js';
import { EventNotifier } from '../runtime/event-notifier.js';
import { SnapshotRebuilder } from '../maintenance/snapshot-rebuilder.js';
import { Snapshotter } from '../snapshot/snapshotter.js';
import { CHECKPOINT_STORE } from '../store/checkpoint-store.js';
import { DEAD_LETTER_STORE } from '../store/dead-letter-store.js';
import { TIMER_STORE } from '../store/timer-store.js';
import { WAKE_CHANNEL } from '../store/wake-channel.js';
import { InProcessPartitionLeases, PARTITION_LEASES } from '../store/partition-leases.js';
import { PostgresPartitionLeases } from '../store/typeorm/postgres-partition-leases.js';
import { PostgresWakeChannel } from '../store/typeorm/postgres-wake-channel.js';
import { PostgresSqlClient, sqlClientFor } from '../store/typeorm/sql-client.js';
import { CrossInstanceWakeups } from '../runtime/cross-instance-wakeups.js';
import { TypeOrmCheckpointStore } from '../store/typeorm/typeorm-checkpoint-store.js';
import { TypeOrmTimerStore } from '../store/typeorm/typeorm-timer-store.js';
import { EVENT_STORE, EVENT_STORE_ADAPTER, type EventStore } from '../store/event-store.js';
import type { EventSourcingModuleStoresOption, EventSourcingStores } from './event-sourcing-stores.js';
import { PROJECTION_TRANSACTIONS } from '../store/projection-transactions.js';
import { TypeOrmProjectionTransactions } from '../store/typeorm/typeorm-projection-transactions.js';
import { InvalidArgumentError } from '../errors/index.js';
import { UpcastingEventStore } from '../store/upcasting-event-store.js';
import { SNAPSHOT_STORE } from '../store/snapshot-store.js';
import { openDataSource } from '../store/typeorm/open-data-source.js';
import { openReadModelDataSource } from '../store/typeorm/read-model-store.js';
import { TypeOrmDeadLetterStore } from '../store/typeorm/typeorm-dead-letter-store.js';
import { TypeOrmEventStore } from '../store/typeorm/typeorm-event-store.js';
import { TypeOrmSnapshotStore } from '../store/typeorm/typeorm-snapshot-store.js';
import {
  EVENT_SOURCING_HTTP_OPTIONS,
  EVENT_SOURCING_OPTIONS,
  type EventSourcingHttpOptions,
  type EventSourcingModuleOptions,
  type EventSourcingModuleStaticOptions,
} from '../config/event-sourcing-options.js';
import { AGGREGATE_SCHEDULER_SUPPLIER, COMMAND_DISPATCHER, EVENT_SOURCING_DATA_SOURCE, READ_MODEL_DATA_SOURCE } from '../config/tokens.js';

export interface EventSourcingModuleAsyncOptions extends EventSourcingModuleStaticOptions, EventSourcingModuleStoresOption, Pick<ModuleMetadata, 'imports'> {
  useFactory: (...args: any[]) => EventSourcingModuleOptions | Promise<EventSourcingModuleOptions>;
  inject?: any[];
}

/** The TypeORM adapter, on the DataSource that `options.store` describes (or the application's own). */
const typeOrmStoreProviders: Provider[] = [
  {
    provide: EVENT_SOURCING_DATA_SOURCE,
    useFactory: (options: EventSourcingModuleOptions) => {
      if (!options.store) throw new InvalidArgumentError('EventSourcingModule needs options.store (a database) or stores (the adapter providers)');
      return openDataSource(options.store);
    },
    inject: [EVENT_SOURCING_OPTIONS],
  },
  { provide: EVENT_STORE_ADAPTER, useFactory: (ds: DataSource) => TypeOrmEventStore.create(ds), inject: [EVENT_SOURCING_DATA_SOURCE] },
  { provide: SNAPSHOT_STORE, useFactory: (ds: DataSource) => new TypeOrmSnapshotStore(ds), inject: [EVENT_SOURCING_DATA_SOURCE] },
  { provide: DEAD_LETTER_STORE, useFactory: (ds: DataSource) => new TypeOrmDeadLetterStore(ds), inject: [EVENT_SOURCING_DATA_SOURCE] },
  {
    provide: READ_MODEL_DATA_SOURCE,
    useFactory: (options: EventSourcingModuleOptions, ds: DataSource) => openReadModelDataSource(ds, options.store!, options.readModels),
    inject: [EVENT_SOURCING_OPTIONS, EVENT_SOURCING_DATA_SOURCE],
  },
  // Checkpoints live with the read models: a projector moves its own in the transaction of its writes.
  { provide: CHECKPOINT_STORE, useFactory: (ds: DataSource) => new TypeOrmCheckpointStore(ds), inject: [READ_MODEL_DATA_SOURCE] },
  { provide: TIMER_STORE, useFactory: (ds: DataSource) => new TypeOrmTimerStore(ds), inject: [EVENT_SOURCING_DATA_SOURCE] },
  {
    provide: PARTITION_LEASES,
    useFactory: (ds: DataSource) => {
      const sql = sqlClientFor(ds);
      return sql instanceof PostgresSqlClient ? new PostgresPartitionLeases(sql.pool, sql.driver.Client) : new InProcessPartitionLeases();
    },
    inject: [EVENT_SOURCING_DATA_SOURCE],
  },
  {
    provide: WAKE_CHANNEL,
    useFactory: (ds: DataSource, store: TypeOrmEventStore) => {
      const sql = sqlClientFor(ds);
      return sql instanceof PostgresSqlClient ? new PostgresWakeChannel(sql.pool, sql.driver.Client, store) : null;
    },
    inject: [EVENT_SOURCING_DATA_SOURCE, EVENT_STORE_ADAPTER],
  },
  {
    provide: PROJECTION_TRANSACTIONS,
    useFactory: (ds: DataSource, checkpoints: TypeOrmCheckpointStore) => new TypeOrmProjectionTransactions(ds, checkpoints),
    inject: [READ_MODEL_DATA_SOURCE, CHECKPOINT_STORE],
  },
];

/** The application's stores, each under the token the runtime injects. */
function suppliedStoreProviders(stores: EventSourcingStores): Provider[] {
  return [
    { provide: EVENT_STORE_ADAPTER, ...stores.event },
    { provide: SNAPSHOT_STORE, ...stores.snapshot },
    { provide: DEAD_LETTER_STORE, ...stores.deadLetter },
    { provide: CHECKPOINT_STORE, ...stores.checkpoint },
    { provide: TIMER_STORE, ...stores.timer },
    { provide: PROJECTION_TRANSACTIONS, ...stores.projectionTransactions },
    { provide: PARTITION_LEASES, ...(stores.partitionLeases ?? { useFactory: () => new InProcessPartitionLeases() }) },
    { provide: WAKE_CHANNEL, ...(stores.wakeChannel ?? { useValue: null }) },
  ] as Provider[];
}

const runtimeProviders: Provider[] = [
  {
    provide: EVENT_STORE,
    useFactory: (adapter: EventStore, registry: EventSourcingRegistry) => new UpcastingEventStore(adapter, registry.eventTypes),
    inject: [EVENT_STORE_ADAPTER, EventSourcingRegistry],
  },
  {
    provide: AGGREGATE_SCHEDULER_SUPPLIER,
    useFactory: (options: EventSourcingModuleOptions) => new DefaultAggregateSchedulerSupplier('event-sourcing', options.schedulerParallelism ?? DEFAULT_PARALLELISM),
    inject: [EVENT_SOURCING_OPTIONS],
  },
  {
    provide: COMMAND_DISPATCHER,
    useFactory: (options: EventSourcingModuleOptions, supplier: AggregateSchedulerSupplier) =>
      new AggregateDispatcher('commands', supplier, options.dispatcherParallelism ?? DEFAULT_COMMAND_LANES),
    inject: [EVENT_SOURCING_OPTIONS, AGGREGATE_SCHEDULER_SUPPLIER],
  },
  { provide: Tracing, useFactory: createTracing },
  EventSourcingRegistry,
  AggregateExplorer,
  SubscriberExplorer,
  EventNotifier,
  CrossInstanceWakeups,
  EventProcessor,
  EventDeadLetterRetrier,
  EmissionSender,
  ProjectionRebuilder,
  EventTypeCensus,
  FactAppender,
  SyncWaiter,
  AggregateLoader,
  AggregateReader,
  MergeInterceptors,
  MergeResolver,
  Snapshotter,
  SnapshotRebuilder,
  EventAppender,
  CommandExecutor,
  CommandGateway,
  CommandDeadLetterRetrier,
  DeadLetterService,
  AdmissionGate,
  EventSourcingLifecycle,
];

const exported = [
  EVENT_SOURCING_OPTIONS,
  PROJECTION_TRANSACTIONS,
  EVENT_STORE,
  SNAPSHOT_STORE,
  DEAD_LETTER_STORE,
  CHECKPOINT_STORE,
  TIMER_STORE,
  PARTITION_LEASES,
  WAKE_CHANNEL,
  AGGREGATE_SCHEDULER_SUPPLIER,
  COMMAND_DISPATCHER,
  EventSourcingRegistry,
  AggregateReader,
  CommandGateway,
  DeadLetterService,
  SnapshotRebuilder,
  EventNotifier,
  EventProcessor,
  FactAppender,
  ProjectionRebuilder,
  EventTypeCensus,
  MetricsService,
];

/** The framework as one global Nest module: `forRoot(options)` or `forRootAsync({useFactory, inject, imports})`. */
@Module({})
export class EventSourcingModule implements NestModule {
  constructor(
    private readonly tracing: Tracing,
    @Optional() @Inject(EVENT_SOURCING_HTTP_OPTIONS) private readonly http?: EventSourcingHttpOptions,
    @Optional() private readonly adapterHost?: HttpAdapterHost,
  ) {}

  /**
   * An incoming `traceparent`, then security headers and the CORS policy, on every route Nest serves.
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
    const http = this.http;
    if (http && http.helmet !== false) middleware.push(helmet(http.helmet));
    if (http?.cors) middleware.push(cors(http.cors as cors.CorsOptions));
    return middleware;
  }

  static forRoot(options: EventSourcingModuleOptions & EventSourcingModuleStaticOptions & EventSourcingModuleStoresOption): DynamicModule {
    return EventSourcingModule.build(options, [{ provide: EVENT_SOURCING_OPTIONS, useValue: options }], []);
  }

  static forRootAsync(options: EventSourcingModuleAsyncOptions): DynamicModule {
    const optionsProvider: Provider = { provide: EVENT_SOURCING_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] };
    return EventSourcingModule.build(options, [optionsProvider], options.imports ?? []);
  }

  private static build(staticOptions: EventSourcingModuleStaticOptions & EventSourcingModuleStoresOption, optionsProviders: Provider[], imports: ModuleMetadata['imports']): DynamicModule {
    const http: EventSourcingHttpOptions | undefined = staticOptions.http === true ? {} : staticOptions.http || undefined;
    const metrics = staticOptions.metrics ?? http !== undefined;
    const metricsProvider: Provider = metrics
      ? { provide: MetricsService, useFactory: createPrometheusMetrics, inject: [EventSourcingRegistry, EVENT_STORE, CHECKPOINT_STORE] }
      : { provide: MetricsService, useClass: NoopMetricsService };
    const controllers = http
      ? [
          CommandController,
          ...(http.aggregateReads ? [AggregateController] : []),
          ...(http.adminGuard ? [DeadLetterController] : []),
          HealthController,
          ...(metrics ? [MetricsController] : []),
        ]
      : [];
    const httpProviders: Provider[] = http
      ? [
          { provide: EVENT_SOURCING_HTTP_OPTIONS, useValue: http },
          { provide: APP_FILTER, useClass: EventSourcingExceptionFilter },
          ClientErrorResponder,
          ConfiguredGuards,
          EventSourcingGuard,
          EventSourcingAdminGuard,
          ...(http.authorizer ? [{ provide: COMMAND_AUTHORIZER, useClass: http.authorizer }] : []),
        ]
      : [];
    const stores = staticOptions.stores;
    return {
      module: EventSourcingModule,
      global: true,
      imports: [DiscoveryModule, ...(http ? [TerminusModule.forRoot({ logger: false })] : []), ...(imports ?? [])],
      providers: [
        ...optionsProviders,
        ...(stores ? suppliedStoreProviders(stores) : typeOrmStoreProviders),
        ...runtimeProviders,
        metricsProvider,
        ...httpProviders,
      ],
      controllers,
      exports: stores ? exported : [...exported, EVENT_SOURCING_DATA_SOURCE, READ_MODEL_DATA_SOURCE],
    };
  }
}
