import { Controller, Get, Inject, ServiceUnavailableException, UseFilters } from '@nestjs/common';
import { EventSourcingExceptionFilter } from './event-sourcing-exception.filter.js';
import { HealthCheckService, HealthIndicatorService, type HealthCheckResult } from '@nestjs/terminus';
import { UnavailableError } from '@nest-es/core';
import { AdmissionGate } from '@nest-es/core/internal';
import { EVENT_STORE, type EventStore } from '@nest-es/core';

/** Readiness answers within this bound whatever the database does: a probe that waits is a probe that fails. */
export const HEALTH_STORE_TIMEOUT_MS = 800;

/**
 * Health on @nestjs/terminus. `GET /health` is readiness: the store answers within
 * HEALTH_STORE_TIMEOUT_MS and commands are admitted (503 UNAVAILABLE otherwise, while shut down or
 * cut off from the database). `GET /health/live` is liveness: the process serves requests, whatever
 * the database does, so a supervisor does not restart an instance that only waits for its database.
 */
@Controller('health')
@UseFilters(EventSourcingExceptionFilter)
export class HealthController {
  /** One store probe at a time: probes of a stalled database must not pile up on the connection pool. */
  private probe: Promise<number> | null = null;

  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly admission: AdmissionGate,
  ) {}

  @Get()
  ready(): Promise<HealthCheckResult> {
    return this.answer([
      this.indicators
        .check('store')
        .attempt(async () => ({ headPosition: await this.headPosition() }))
        .withTimeout(HEALTH_STORE_TIMEOUT_MS),
      () => {
        const admission = this.indicators.check('admission');
        const data = { commandsInFlight: this.admission.active };
        return this.admission.isOpen ? admission.up(data) : admission.down({ ...data, message: 'shutting down' });
      },
    ]);
  }

  @Get('live')
  live(): Promise<HealthCheckResult> {
    return this.answer([]);
  }

  private headPosition(): Promise<number> {
    this.probe ??= this.store.headPosition().finally(() => {
      this.probe = null;
    });
    return this.probe;
  }

  /** Terminus's 503 carries its report; it goes out in the framework's error body, with the report beside the code. */
  private async answer(checks: Parameters<HealthCheckService['check']>[0]): Promise<HealthCheckResult> {
    try {
      return await this.health.check(checks);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const report = error.getResponse() as HealthCheckResult;
      const down = Object.entries(report.error ?? {}).map(([key, value]) => `${key}: ${String((value as { message?: unknown }).message ?? 'down')}`);
      throw new UnavailableError(`not ready (${down.join('; ')})`, { status: report.status, details: report.details });
    }
  }
}
