import type { EventSourcingModuleOptions } from '../config/event-sourcing-options.js';
import type { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import { isPackageNotFound, MissingPeerDependencyError } from '../errors/index.js';
import type { CheckpointStore } from '../store/checkpoint-store.js';
import type { EventStore } from '../store/event-store.js';
import type { MetricsService } from './metrics.service.js';

/** Loads the prom-client implementation (prom-client is an optional peer dependency). */
export async function createPrometheusMetrics(
  definitions: EventSourcingRegistry,
  store: EventStore,
  checkpoints: CheckpointStore,
  options: EventSourcingModuleOptions,
): Promise<MetricsService> {
  try {
    const { PrometheusMetricsService } = await import('./prometheus-metrics.service.js');
    return new PrometheusMetricsService(definitions, store, checkpoints, options.processing);
  } catch (error) {
    if (isPackageNotFound(error, 'prom-client')) throw new MissingPeerDependencyError('prom-client', 'Prometheus metrics (turn them off with metrics: false)', { cause: error });
    throw error;
  }
}
