import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ProcessingOptions } from '../config/event-sourcing-options.js';
import type { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import { subscriberCheckpoints } from '../discovery/subscriber-checkpoints.js';
import type { SubscriberDefinition } from '../discovery/subscriber-definition.js';
import type { CheckpointStore } from '../store/checkpoint-store.js';
import type { EventStore } from '../store/event-store.js';
import { MetricsService } from './metrics.service.js';

/**
 * Prometheus metrics of the framework, on a registry of its own (several apps in one process,
 * as in tests, must not collide on the global one). Loaded only through createPrometheusMetrics:
 * importing this file loads prom-client.
 */
export class PrometheusMetricsService extends MetricsService {
  readonly registry = new Registry();
  private readonly commands = new Counter({
    name: 'es_commands_total',
    help: 'Commands handled, by aggregate type, command type and outcome (ok or the error code)',
    labelNames: ['aggregate_type', 'command_type', 'outcome'],
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'es_command_duration_seconds',
    help: 'Time from send to stored (and synced, for sync modes)',
    labelNames: ['aggregate_type'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
    registers: [this.registry],
  });

  constructor(definitions: EventSourcingRegistry, store: EventStore, checkpoints: CheckpointStore, processing: ProcessingOptions | undefined) {
    super();
    new Gauge({
      name: 'es_subscriber_lag_events',
      help: 'Store head position minus the subscriber checkpoint (under scale-out, its partition furthest behind), read at scrape time',
      labelNames: ['subscriber', 'kind'],
      registers: [this.registry],
      collect: async function (this: Gauge) {
        this.reset();
        const [head, positions] = await Promise.all([store.headPosition(), checkpoints.loadAll()]);
        const lags = new Map<SubscriberDefinition, number>();
        // Under scale-out a subscriber keeps one checkpoint per partition, none under its own name.
        for (const { subscriber, checkpoint } of subscriberCheckpoints(definitions, processing)) {
          lags.set(subscriber, Math.max(lags.get(subscriber) ?? 0, head - (positions.get(checkpoint) ?? 0)));
        }
        for (const [subscriber, lag] of lags) this.set({ subscriber: subscriber.name, kind: subscriber.kind }, lag);
      },
    });
  }

  /**
   * The labelled series of each (aggregate type, command type, outcome), made on first use: prom-client
   * hashes a label object on every call otherwise. Bounded by the registered handlers and the error codes.
   */
  private readonly series = new Map<string, { commands: { inc(): void }; duration: { observe(seconds: number): void } }>();

  recordCommand(aggregateType: string, commandType: string, outcome: string, seconds: number): void {
    const key = `${aggregateType}\u0000${commandType}\u0000${outcome}`;
    let series = this.series.get(key);
    if (!series) {
      series = {
        commands: this.commands.labels({ aggregate_type: aggregateType, command_type: commandType, outcome }),
        duration: this.duration.labels({ aggregate_type: aggregateType }),
      };
      this.series.set(key, series);
    }
    series.commands.inc();
    series.duration.observe(seconds);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
