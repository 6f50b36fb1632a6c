import { type DynamicModule, type InjectionToken, Module, type ModuleMetadata, type Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AggregateLoader } from '../command/aggregate-loader.js';
import { AggregateReader } from '../reading/aggregate-reader.js';
import { CommandExecutor } from '../command/command-executor.js';
import { CommandGateway } from '../command/command-gateway.js';
import { EventAppender } from '../command/event-appender.js';
import { CommandDeadLetterRetrier } from '../dead-letter/command-retrier.js';
import { DeadLetterService } from '../dead-letter/dead-letter.service.js';
import { AggregateExplorer } from '../discovery/aggregate-explorer.js';
import { SubscriberExplorer } from '../discovery/subscriber-explorer.js';
import { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import { MetricsService, NoopMetricsService } from '../runtime/metrics.service.js';
import { createPrometheusMetrics } from '../runtime/create-prometheus-metrics.js';
import { Tracing } from '../runtime/tracing.js';
import { createTracing } from '../runtime/create-tracing.js';
import { MergeStrategies } from '../merge/merge-strategies.js';
import { MergeResolver } from '../command/merge-resolver.js';
import { AdmissionGate } from '../runtime/admission-gate.js';
import { EventSourcingLifecycle } from './event-sourcing-lifecycle.js';
import { AggregateDispatcher, DEFAULT_COMMAND_LANES, DEFAULT_PARALLELISM, DefaultAggregateSchedulerSupplier, type AggregateSchedulerSupplier } from '../scheduling/index.js';
import { EmissionSender } from '../processing/emission-sender.js';
import { EventDeadLetterRetrier } from '../processing/event-dead-letter-retrier.js';
import { EventProcessor } from '../processing/event-processor.js';
import { FactAppender } from '../processing/fact-appender.js';
import { WorkflowActivity } from '../processing/workflow-activity.js';
import { EventTypeCensus } from '../maintenance/event-type-census.js';
import { ProjectionRebuilder } from '../maintenance/projection-rebuilder.js';
import { SyncWaiter } from '../command/sync-waiter.js';
import { EventNotifier } from '../runtime/event-notifier.js';
import { SnapshotRebuilder } from '../maintenance/snapshot-rebuilder.js';
import { HeldEventRetrier } from '../operations/held-event-retrier.js';
import { StreamInspector } from '../operations/stream-inspector.js';
import { SubscriberOverviewReader } from '../operations/subscriber-overview-reader.js';
import { Snapshotter } from '../snapshot/snapshotter.js';
import { CHECKPOINT_STORE } from '../store/checkpoint-store.js';
import { DEAD_LETTER_STORE } from '../store/dead-letter-store.js';
import { TIMER_STORE } from '../store/timer-store.js';
import { WAKE_CHANNEL } from '../store/wake-channel.js';
import { READ_MODEL_TABLES } from '../store/read-model-tables.js';
import { BlueGreenRebuilder } from '../maintenance/blue-green/blue-green-rebuilder.js';
import { InProcessPartitionLeases, PARTITION_LEASES } from '../store/partition-leases.js';
import { CrossInstanceWakeups } from '../runtime/cross-instance-wakeups.js';
import { ReadModelChanges } from '../runtime/read-model-changes.js';
import { LiveQueries } from '../live/live-queries.js';
import { EVENT_STORE, EVENT_STORE_ADAPTER, type EventStore } from '../store/event-store.js';
import { UpcastingEventStore } from '../store/upcasting-event-store.js';
import { SNAPSHOT_STORE } from '../store/snapshot-store.js';
import { InvalidArgumentError } from '../errors/index.js';
import { EVENT_SOURCING_OPTIONS, type EventSourcingModuleOptions } from '../config/event-sourcing-options.js';
import { ADAPTER_PORTS, AGGREGATE_SCHEDULER_SUPPLIER, COMMAND_DISPATCHER } from '../config/tokens.js';
import type { AdapterPorts, EventSourcingAdapter } from '../adapter/event-sourcing-adapter.js';
import { EVENT_SOURCING_ADAPTER } from './module-tokens.js';

/** Options the module needs before the factory runs (they decide which providers exist). */
export interface EventSourcingModuleStaticOptions {
  /** Where events, snapshots, checkpoints, timers and dead letters live: `inMemory()`, `typeorm(...)` from `@nest-es/typeorm`, or your own. */
  adapter: EventSourcingAdapter<any>;
  /** Prometheus metrics (needs the prom-client package; `@nest-es/http` serves them at `GET /metrics`). Default off. */
  metrics?: boolean;
}

export interface EventSourcingModuleAsyncOptions extends EventSourcingModuleStaticOptions, Pick<ModuleMetadata, 'imports'> {
  useFactory: (...args: any[]) => EventSourcingModuleOptions | Promise<EventSourcingModuleOptions>;
  inject?: any[];
}

function resolveRequired<T>(adapter: EventSourcingAdapter<any>, values: Map<InjectionToken, unknown>, token: InjectionToken): T {
  if (!values.has(token)) throw new InvalidArgumentError(`the "${adapter.name}" adapter asked for ${typeof token === "function" ? token.name : String(token)}, which is not among the providers it requires`);
  return values.get(token) as T;
}

/** The adapter opened once at boot, and each of its ports under the token the runtime injects. */
function adapterProviders(adapter: EventSourcingAdapter<any>): Provider[] {
  const port = (provide: InjectionToken, pick: (ports: AdapterPorts) => unknown): Provider => ({ provide, useFactory: pick, inject: [ADAPTER_PORTS] });
  return [
    { provide: EVENT_SOURCING_ADAPTER, useValue: adapter },
    {
      provide: ADAPTER_PORTS,
      // The required providers are injected, so Nest has them ready (an async factory's too) before the adapter opens.
      useFactory: (...provided: unknown[]) => {
        const values = new Map((adapter.requires ?? []).map((token, index) => [token, provided[index]]));
        return adapter.open({ resolve: <T>(token: InjectionToken) => resolveRequired<T>(adapter, values, token) });
      },
      inject: [...(adapter.requires ?? [])],
    },
    port(EVENT_STORE_ADAPTER, (ports) => ports.events),
    port(SNAPSHOT_STORE, (ports) => ports.snapshots),
    port(CHECKPOINT_STORE, (ports) => ports.checkpoints),
    port(DEAD_LETTER_STORE, (ports) => ports.deadLetters),
    port(TIMER_STORE, (ports) => ports.timers),
    port(PARTITION_LEASES, (ports) => ports.leases ?? new InProcessPartitionLeases()),
    port(WAKE_CHANNEL, (ports) => ports.wakeChannel ?? null),
    port(READ_MODEL_TABLES, (ports) => ports.readModelTables ?? null),
    port(WorkflowActivity, (ports) => new WorkflowActivity(ports.writesHoldEventLoop === true)),
    ...(adapter.provides ?? []).map((token) => port(token, () => adapter.provided!(token))),
  ];
}

const runtimeProviders: Provider[] = [
  {
    provide: EVENT_STORE,
    useFactory: (store: EventStore, registry: EventSourcingRegistry, adapter: EventSourcingAdapter) => new UpcastingEventStore(store, registry.eventTypes, adapter.name),
    inject: [EVENT_STORE_ADAPTER, EventSourcingRegistry, EVENT_SOURCING_ADAPTER],
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
  ReadModelChanges,
  LiveQueries,
  CrossInstanceWakeups,
  EventProcessor,
  EventDeadLetterRetrier,
  EmissionSender,
  ProjectionRebuilder,
  BlueGreenRebuilder,
  EventTypeCensus,
  SubscriberOverviewReader,
  HeldEventRetrier,
  StreamInspector,
  FactAppender,
  SyncWaiter,
  AggregateLoader,
  AggregateReader,
  MergeStrategies,
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
  EVENT_SOURCING_ADAPTER,
  EVENT_STORE,
  SNAPSHOT_STORE,
  DEAD_LETTER_STORE,
  CHECKPOINT_STORE,
  TIMER_STORE,
  PARTITION_LEASES,
  WAKE_CHANNEL,
  READ_MODEL_TABLES,
  AGGREGATE_SCHEDULER_SUPPLIER,
  COMMAND_DISPATCHER,
  EventSourcingRegistry,
  AggregateReader,
  CommandGateway,
  DeadLetterService,
  SnapshotRebuilder,
  EventNotifier,
  LiveQueries,
  EventProcessor,
  FactAppender,
  ProjectionRebuilder,
  BlueGreenRebuilder,
  EventTypeCensus,
  SubscriberOverviewReader,
  HeldEventRetrier,
  StreamInspector,
  MetricsService,
  Tracing,
  AdmissionGate,
  EventSourcingLifecycle,
];

/**
 * The framework as one global Nest module: `forRoot(options)` or `forRootAsync({adapter, useFactory,
 * inject, imports})`. It mounts no route and touches nothing of the host application: the HTTP routes
 * are `@nest-es/http`'s module.
 */
@Module({})
export class EventSourcingModule {
  static forRoot(options: EventSourcingModuleOptions & EventSourcingModuleStaticOptions): DynamicModule {
    return EventSourcingModule.build(options, [{ provide: EVENT_SOURCING_OPTIONS, useValue: options }], []);
  }

  static forRootAsync(options: EventSourcingModuleAsyncOptions): DynamicModule {
    const optionsProvider: Provider = { provide: EVENT_SOURCING_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] };
    return EventSourcingModule.build(options, [optionsProvider], options.imports ?? []);
  }

  private static build(staticOptions: EventSourcingModuleStaticOptions, optionsProviders: Provider[], imports: ModuleMetadata['imports']): DynamicModule {
    const adapter = staticOptions?.adapter;
    if (!adapter || typeof adapter.open !== 'function') {
      throw new InvalidArgumentError(
        'EventSourcingModule needs an adapter: forRoot({adapter: inMemory()}) for tests, or typeorm({...}) from @nest-es/typeorm for a database',
      );
    }
    const metricsProvider: Provider = staticOptions.metrics
      ? { provide: MetricsService, useFactory: createPrometheusMetrics, inject: [EventSourcingRegistry, EVENT_STORE, CHECKPOINT_STORE, EVENT_SOURCING_OPTIONS] }
      : { provide: MetricsService, useClass: NoopMetricsService };
    return {
      module: EventSourcingModule,
      global: true,
      imports: [DiscoveryModule, ...(imports ?? [])],
      providers: [...optionsProviders, ...adapterProviders(adapter), ...runtimeProviders, metricsProvider],
      exports: [...exported, ...(adapter.provides ?? [])],
    };
  }
}
