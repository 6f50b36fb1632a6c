import { Inject, Injectable } from '@nestjs/common';
import { AggregateLoader } from '../command/aggregate-loader.js';
import { EventAppender } from '../command/event-appender.js';
import type { SubscriberKind } from '../decorators/subscriber-types.js';
import { InvalidArgumentError } from '../errors/index.js';
import { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import type { SubscriberDefinition } from '../discovery/subscriber-definition.js';
import type { TableName } from '../discovery/read-model-table-names.js';
import { EVENT_SOURCING_OPTIONS, type EventSourcingModuleOptions } from '../config/event-sourcing-options.js';
import { EventNotifier } from '../runtime/event-notifier.js';
import { ReadModelChanges } from '../runtime/read-model-changes.js';
import { Tracing } from '../runtime/tracing.js';
import { CompositeEventDispatcher, DEFAULT_PARALLELISM, DefaultAggregateSchedulerSupplier } from '../scheduling/index.js';
import { CHECKPOINT_STORE, type CheckpointStore } from '../store/checkpoint-store.js';
import { DEAD_LETTER_STORE, type DeadLetterStore } from '../store/dead-letter-store.js';
import { EVENT_STORE, type CapableEventStore } from '../store/event-store.js';
import { TIMER_STORE, type TimerStore } from '../store/timer-store.js';
import { PARTITION_LEASES, type PartitionLeases } from '../store/partition-leases.js';
import type { BatchHandler } from './batch-handler.js';
import type { HeldEventStatus } from './held-event-status.js';
import { EmissionSender } from './emission-sender.js';
import { EventDeadLetters } from './event-dead-letters.js';
import { ProcessManagerReactor } from './process-manager-reactor.js';
import { ProjectorReactor } from './projector-reactor.js';
import type { Reactor } from './reactor.js';
import { DEFAULT_RETRY_POLICY } from './retry-policy.js';
import { SagaReactor } from './saga-reactor.js';
import { SubscriptionPipeline } from './subscription-pipeline.js';
import { SubscriberKindDispatcher } from './subscriber-kind-dispatcher.js';
import { DEFAULT_SUBSCRIPTION_SETTINGS, SubscriptionRunner } from './subscription-runner.js';
import { TimerPoller } from './timer-poller.js';
import { WorkflowActivity } from './workflow-activity.js';
import { DEFAULT_REBALANCE_INTERVAL_MS, PartitionCoordinator } from './partition-coordinator.js';
import { checkpointName, partitionCount, partitionOfKey, WHOLE, type Partition } from '../discovery/subscriber-partitions.js';

const KINDS: SubscriberKind[] = ['projector', 'saga', 'process-manager'];
const DEFAULT_TIMER_POLL_MS = 200;

/**
 * Runs every subscriber: one event dispatcher per kind, children of one CompositeEventDispatcher
 * that owns the events' scheduler supplier: the children get a borrowed view, so that their own
 * stops leave it alone and only the composite closes the real one, once they have all stopped.
 */
@Injectable()
export class EventProcessor {
  private composite?: CompositeEventDispatcher;
  private readonly handlers = new Map<string, BatchHandler>();
  /** Every partition's pipeline, by its checkpoint name (for the held events' status). */
  private readonly pipelines = new Map<string, SubscriptionPipeline>();
  /** Every partition's runner, by its checkpoint name. */
  private readonly runners = new Map<string, SubscriptionRunner>();
  private coordinator?: PartitionCoordinator;
  /** The projectors' dispatcher, whose lanes a blue/green copy's subscription runs in too. */
  private projectors?: SubscriberKindDispatcher;
  private settings = DEFAULT_SUBSCRIPTION_SETTINGS;

  constructor(
    private readonly registry: EventSourcingRegistry,
    private readonly loader: AggregateLoader,
    private readonly notifier: EventNotifier,
    private readonly sender: EmissionSender,
    @Inject(EVENT_STORE) private readonly store: CapableEventStore,
    @Inject(CHECKPOINT_STORE) private readonly checkpoints: CheckpointStore,
    @Inject(DEAD_LETTER_STORE) private readonly deadLetters: DeadLetterStore,
    @Inject(TIMER_STORE) private readonly timers: TimerStore,
    @Inject(EVENT_SOURCING_OPTIONS) private readonly options: EventSourcingModuleOptions,
    private readonly appender: EventAppender,
    @Inject(PARTITION_LEASES) private readonly leases: PartitionLeases,
    private readonly tracing: Tracing,
    private readonly changes: ReadModelChanges,
    private readonly workflows: WorkflowActivity,
  ) {}

  async start(): Promise<void> {
    const processing = this.options.processing ?? {};
    const unknown = (processing.subscribers ?? []).filter((name) => !this.registry.subscribers.has(name));
    if (unknown.length > 0) {
      throw new InvalidArgumentError(`processing.subscribers names unknown subscribers: ${unknown.join(', ')}; known: ${[...this.registry.subscribers.keys()].join(', ')}`);
    }
    const parallelism = processing.parallelism ?? DEFAULT_PARALLELISM;
    const settings = { ...DEFAULT_SUBSCRIPTION_SETTINGS, ...(processing.pollIntervalMs ? { pollIntervalMs: processing.pollIntervalMs } : {}) };
    this.settings = settings;
    const supplier = new DefaultAggregateSchedulerSupplier('events', parallelism);
    const count = partitionCount(processing);
    if (!Number.isInteger(count) || count < 1) throw new InvalidArgumentError(`processing.scaleOut.partitions must be a positive integer, not ${count}`);
    const scaleOut = processing.scaleOut !== undefined;
    const coordinated = new Map<string, SubscriptionRunner>();
    const children = KINDS.map((kind) => (borrowed: ConstructorParameters<typeof SubscriberKindDispatcher>[1]) => {
      const dispatcher = new SubscriberKindDispatcher(kind, borrowed, parallelism);
      if (kind === 'projector') this.projectors = dispatcher;
      const processReactors = new Map<string, ProcessManagerReactor>();
      const chosen = processing.subscribers;
      for (const subscriber of [...this.registry.subscribers.values()].filter((s) => s.kind === kind && (!chosen || chosen.includes(s.name)))) {
        // One reactor serves every partition: it keeps no state of its own.
        const reactor = this.reactorFor(subscriber, dispatcher);
        if (reactor instanceof ProcessManagerReactor) processReactors.set(subscriber.name, reactor);
        for (let index = 0; index < count; index++) {
          const partition: Partition = { index, count };
          const handler = this.pipelineFor(subscriber, reactor, dispatcher, checkpointName(subscriber.name, partition));
          this.pipelines.set(checkpointName(subscriber.name, partition), handler);
          // Any partition's pipeline redelivers a dead letter: redelivery moves no checkpoint.
          if (index === 0) this.handlers.set(subscriber.name, handler);
          const runner = new SubscriptionRunner(subscriber, handler, this.store, this.checkpoints, this.notifier, settings, partition, this.workflows);
          this.runners.set(runner.name, runner);
          if (scaleOut) coordinated.set(runner.name, runner);
          else dispatcher.add(runner);
        }
      }
      if (processReactors.size > 0) {
        const runsHere = (timer: { owner: string; correlationId: string }) =>
          !this.coordinator || this.coordinator.runs(checkpointName(timer.owner, { index: partitionOfKey(timer.correlationId, count), count }));
        dispatcher.addFeeder(new TimerPoller(this.timers, processReactors, processing.timerPollIntervalMs ?? DEFAULT_TIMER_POLL_MS, runsHere));
      }
      return dispatcher;
    });
    this.composite = new CompositeEventDispatcher('events', supplier, children);
    await this.composite.start();
    if (scaleOut) {
      this.coordinator = new PartitionCoordinator(coordinated, this.leases, processing.scaleOut?.rebalanceIntervalMs ?? DEFAULT_REBALANCE_INTERVAL_MS);
      this.coordinator.start();
    }
  }

  /** True when scale-out shares the subscribers among instances (a rebuild cannot pause them all from here). */
  get sharedAmongInstances(): boolean {
    return this.coordinator !== undefined;
  }

  /** The partitions running in this instance now, by checkpoint name. */
  runningPartitions(): string[] {
    return [...this.runners.keys()].filter((name) => this.runsHere(name));
  }

  /**
   * Every partition this process is set to run, by checkpoint name, in the order scale-out shares
   * them out: unit i belongs to live instance i mod n (see PartitionCoordinator).
   */
  units(): string[] {
    return [...this.runners.keys()];
  }

  /** The held keys of a partition that runs in this process now; undefined when it runs elsewhere (or nowhere). */
  heldStatus(checkpoint: string): HeldEventStatus | undefined {
    return this.runsHere(checkpoint) ? this.pipelines.get(checkpoint) : undefined;
  }

  private runsHere(checkpoint: string): boolean {
    return this.runners.has(checkpoint) && (!this.coordinator || this.coordinator.runs(checkpoint));
  }

  async stopGracefully(): Promise<void> {
    // The partitions stop (and their leases are released) before the lanes they feed drain.
    await this.coordinator?.stop();
    await this.composite?.stopGracefully();
  }

  async forceStop(): Promise<void> {
    await this.composite?.forceStop();
    await this.coordinator?.stop();
  }

  /** The handler of a subscriber, for dead-letter retries. */
  handler(subscriber: string): BatchHandler | undefined {
    return this.handlers.get(subscriber);
  }

  /** Where a subscriber has read up to in this process (undefined when it does not run here). */
  position(subscriber: string): number | undefined {
    return this.runners.get(subscriber)?.currentPosition;
  }

  /** Stops one subscription (for a rebuild) and returns a function that starts it again. */
  async pause(subscriber: string): Promise<() => Promise<void>> {
    const runner = this.runners.get(subscriber);
    if (!runner) return async () => undefined;
    await runner.stop();
    return () => runner.start();
  }

  /**
   * Starts a second subscription of a projector, from its own checkpoint `copy.checkpoint`, writing
   * the tables `copy.table` names (a blue/green copy). It runs in the projectors' lanes until its
   * `stop`; its changes wake no live query (nobody reads the copy yet).
   */
  async runCopy(projector: SubscriberDefinition, copy: { checkpoint: string; table: TableName }): Promise<SubscriptionRunner> {
    if (!this.projectors) throw new InvalidArgumentError('processing does not run in this process: a projector copy needs it (processing.enabled)');
    const definition: SubscriberDefinition = { ...projector, name: copy.checkpoint };
    const reactor = new ProjectorReactor(definition, this.tracing, new ReadModelChanges(), copy.table);
    const pipeline = this.pipelineFor(definition, reactor, this.projectors, copy.checkpoint);
    const runner = new SubscriptionRunner(definition, pipeline, this.store, this.checkpoints, this.notifier, this.settings, WHOLE, this.workflows);
    await runner.start();
    return runner;
  }

  private pipelineFor(subscriber: SubscriberDefinition, reactor: Reactor, dispatcher: SubscriberKindDispatcher, checkpoint: string): SubscriptionPipeline {
    return new SubscriptionPipeline({
      checkpoint,
      reactor,
      checkpoints: this.checkpoints,
      store: this.store,
      deadLetters: new EventDeadLetters(subscriber.name, this.deadLetters),
      lanes: dispatcher.lanes,
      laneName: subscriber.name,
      policy: { ...DEFAULT_RETRY_POLICY, maxAttempts: subscriber.options.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts },
    });
  }

  private reactorFor(subscriber: SubscriberDefinition, dispatcher: SubscriberKindDispatcher): Reactor {
    switch (subscriber.kind) {
      case 'projector':
        return new ProjectorReactor(subscriber, this.tracing, this.changes);
      case 'saga':
        return new SagaReactor(subscriber, this.sender, this.tracing);
      case 'process-manager':
        return new ProcessManagerReactor(subscriber, {
          registry: this.registry,
          lanes: dispatcher.lanes,
          store: this.store,
          loader: this.loader,
          timers: this.timers,
          sender: this.sender,
          appender: this.appender,
          tracing: this.tracing,
        });
    }
  }
}
