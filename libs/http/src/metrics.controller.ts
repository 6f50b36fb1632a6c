import { Controller, Get, Header, UseFilters } from '@nestjs/common';
import { EventSourcingExceptionFilter } from './event-sourcing-exception.filter.js';
import { MetricsService, NoopMetricsService } from '@nest-es/core/internal';
import { NotFoundError } from '@nest-es/core';

/** `GET /metrics` in the Prometheus text format, when the core module measures (`metrics: true`). */
@Controller('metrics')
@UseFilters(EventSourcingExceptionFilter)
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    if (this.metrics instanceof NoopMetricsService) {
      throw new NotFoundError('metrics are off: turn them on with EventSourcingModule.forRoot({metrics: true}) (needs prom-client)');
    }
    return this.metrics.text();
  }
}
