import { Controller, Get, Header } from '@nestjs/common';
import { MetricsService } from '../runtime/metrics.service.js';

/** `GET /metrics` in the Prometheus text format. */
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.metrics.text();
  }
}
