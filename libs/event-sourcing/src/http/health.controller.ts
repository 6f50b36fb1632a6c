import { Controller, Get, HttpException, Inject } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '../store/event-store.js';
import { AdmissionGate } from '../runtime/admission-gate.js';

/**
 * `GET /health`: 200 while the store answers and commands are admitted, 503 otherwise. Written
 * here rather than with @nestjs/terminus: two checks that need our own state (the store port and
 * the admission gate) do not pay for a dependency every user of the library would carry.
 */
@Controller('health')
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly admission: AdmissionGate,
  ) {}

  @Get()
  async health(): Promise<{ status: string; store: string; headPosition: number; commandsInFlight: number }> {
    let headPosition: number;
    try {
      headPosition = await this.store.headPosition();
    } catch (error) {
      throw new HttpException({ statusCode: 503, code: 'UNAVAILABLE', message: `event store unreachable: ${(error as Error).message}` }, 503);
    }
    if (!this.admission.isOpen) {
      throw new HttpException({ statusCode: 503, code: 'UNAVAILABLE', message: 'shutting down' }, 503);
    }
    return { status: 'ok', store: 'up', headPosition, commandsInFlight: this.admission.active };
  }
}
