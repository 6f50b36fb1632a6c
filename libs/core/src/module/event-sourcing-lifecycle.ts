import {
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { AggregateExplorer } from '../discovery/aggregate-explorer.js';
import { BootValidationError } from '../discovery/boot-validation.error.js';
import { SubscriberExplorer } from '../discovery/subscriber-explorer.js';
import { EventProcessor } from '../processing/event-processor.js';
import { EVENT_SOURCING_OPTIONS, type EventSourcingModuleOptions } from '../config/event-sourcing-options.js';
import { AGGREGATE_SCHEDULER_SUPPLIER, COMMAND_DISPATCHER } from '../config/tokens.js';
import type { EventSourcingAdapter } from '../adapter/event-sourcing-adapter.js';
import { EVENT_SOURCING_ADAPTER } from './module-tokens.js';
import { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import { EVENT_STORE_ADAPTER } from '../store/event-store.js';
import { type AdapterEventStore, assertCapabilitiesFor } from '../store/event-store-capabilities.js';
import type { AggregateDispatcher, AggregateSchedulerSupplier } from '../scheduling/index.js';
import { AdmissionGate } from '../runtime/admission-gate.js';
import { runWithDeadline } from '../runtime/deadline.js';
import { SyncWaiter } from '../command/sync-waiter.js';
import { createLiveTables } from '../maintenance/blue-green/create-live-tables.js';
import { CHECKPOINT_STORE, type CheckpointStore } from '../store/checkpoint-store.js';
import { READ_MODEL_TABLES, type ReadModelTables } from '../store/read-model-tables.js';

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;
const DEFAULT_DRAIN_TIMEOUT_MS = 5_000;

/**
 * Wires the runtime into Nest's lifecycle: discovery at module init;
 * at shutdown admission closes, the commands in flight and their sync waits drain (bounded),
 * components stop in reverse order under one deadline, then whatever is left is force-stopped;
 * connections close last (Nest closes the HTTP server in between, so requests in flight get their answer).
 */
@Injectable()
export class EventSourcingLifecycle implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('EventSourcing');
  /** How the last shutdown went: within the deadline, or force-stopped after it. */
  stopOutcome: 'running' | 'graceful' | 'forced' = 'running';

  constructor(
    private readonly explorer: AggregateExplorer,
    private readonly subscribers: SubscriberExplorer,
    private readonly processor: EventProcessor,
    private readonly admission: AdmissionGate,
    private readonly syncWaiter: SyncWaiter,
    @Inject(COMMAND_DISPATCHER) private readonly dispatcher: AggregateDispatcher,
    @Inject(AGGREGATE_SCHEDULER_SUPPLIER) private readonly supplier: AggregateSchedulerSupplier,
    @Inject(EVENT_SOURCING_ADAPTER) private readonly adapter: EventSourcingAdapter,
    @Inject(EVENT_STORE_ADAPTER) private readonly store: AdapterEventStore,
    private readonly registry: EventSourcingRegistry,
    @Inject(EVENT_SOURCING_OPTIONS) private readonly options: EventSourcingModuleOptions,
    private readonly modules: ModulesContainer,
    @Inject(CHECKPOINT_STORE) private readonly checkpoints: CheckpointStore,
    @Inject(READ_MODEL_TABLES) private readonly tables: ReadModelTables | null,
  ) {}

  onModuleInit(): void {
    this.assertOneModule();
    this.explorer.explore();
    this.subscribers.explore();
    const workflows = this.registry.hasWorkflows;
    assertCapabilitiesFor(this.store, this.adapter.name, { workflows });
  }

  /**
   * Two imports of the module would each find every aggregate and subscriber of the application
   * (discovery is application-wide) and run them on their own adapter: which store a command reaches
   * would depend on who injected which gateway.
   */
  private assertOneModule(): void {
    const count = [...this.modules.values()].filter((module) => module.providers.has(EVENT_SOURCING_OPTIONS)).length;
    if (count <= 1) return;
    throw new BootValidationError([
      `EventSourcingModule.forRoot (or forRootAsync) is imported ${count} times; an application has one event store: import it once, ` +
        'in the root module, and declare aggregates, projectors, sagas and process managers as providers of any module (they are found wherever they are)',
    ]);
  }

  async onApplicationBootstrap(): Promise<void> {
    await createLiveTables(this.registry, this.checkpoints, this.tables);
    if (this.options.processing?.enabled !== false) await this.processor.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.admission.close();
    const started = Date.now();
    const deadlineMs = this.options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    // First the commands in flight and their SIMPLE / CASCADE waits settle, while the subscriptions
    // they wait for still run; the drain bound keeps time for the steps after it.
    await runWithDeadline(this.admission.idle(), Math.min(this.options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS, deadlineMs));
    // Then the reverse of start: waits still running end with SYNC_TIMEOUT (their commands are stored),
    // subscriptions finish their batch (their commands are still admitted), the commands still in
    // flight drain, then the command lanes and their schedulers close.
    const graceful = async () => {
      await this.syncWaiter.stop();
      await this.processor.stopGracefully();
      await this.admission.idle();
      await this.dispatcher.stopGracefully();
      await this.supplier.stopGracefully();
    };
    const finished = await runWithDeadline(graceful(), Math.max(0, deadlineMs - (Date.now() - started)));
    this.stopOutcome = finished ? 'graceful' : 'forced';
    if (!finished) {
      this.logger.warn(`graceful stop did not finish within ${deadlineMs} ms; force-stopping`);
      await this.processor.forceStop();
      await this.dispatcher.forceStop();
      await this.supplier.forceStop();
      // Running appends cannot be interrupted; they are atomic, so waiting for them keeps the store whole.
      // Sync waits are admitted work too, and the stopped waiter ends them at their next read.
      await this.admission.idle();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.adapter.close();
  }
}
