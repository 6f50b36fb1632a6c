import { Injectable } from '@nestjs/common';
import type { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import { isPackageNotFound, MissingPeerDependencyError } from '../errors/index.js';
import type { CheckpointStore } from '../store/checkpoint-store.js';
import type { EventStore } from '../store/event-store.js';

/**
 * What the framework measures (commands by outcome and latency, subscriber lag), and the text of
 * `GET /metrics`. Without metrics turned on it is {@link NoopMetricsService}, so prom-client is
 * needed only by applications that want metrics.
 */
export abstract class MetricsService {
  abstract recordCommand(aggregateType: string, commandType: string, outcome: string, seconds: number): void;
  /** The Prometheus text format. */
  abstract text(): Promise<string>;
}

/** Metrics turned off: nothing is recorded. */
@Injectable()
export class NoopMetricsService extends MetricsService {
  recordCommand(): void {}

  text(): Promise<string> {
    return Promise.resolve('');
  }
}

/** Loads the prom-client implementation (prom-client is an optional peer dependency). */
export async function createPrometheusMetrics(definitions: EventSourcingRegistry, store: EventStore, checkpoints: CheckpointStore): Promise<MetricsService> {
  try {
    const { PrometheusMetricsService } = await import('./prometheus-metrics.service.js');
    return new PrometheusMetricsService(definitions, store, checkpoints);
  } catch (error) {
    if (isPackageNotFound(error, 'prom-client')) throw new MissingPeerDependencyError('prom-client', 'Prometheus metrics (turn them off with metrics: false)', { cause: error });
    throw error;
  }
}
