import { Injectable } from '@nestjs/common';

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
