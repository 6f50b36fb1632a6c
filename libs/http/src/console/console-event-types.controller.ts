import { Controller, Get, UseFilters, UseGuards } from '@nestjs/common';
import { EventTypeCensus, type EventTypeCount } from '@nest-es/core/internal';
import { EventSourcingAdminGuard } from '../configured-guards.js';
import { EventSourcingExceptionFilter } from '../event-sourcing-exception.filter.js';

/**
 * `GET <console>/api/event-types`: the stored events by type and schema version and how this code
 * reads each (what `nest-es event-types` prints); behind `http.adminGuard`. It reads the whole store.
 */
@Controller()
@UseFilters(EventSourcingExceptionFilter)
@UseGuards(EventSourcingAdminGuard)
export class ConsoleEventTypesController {
  constructor(private readonly census: EventTypeCensus) {}

  @Get()
  async eventTypes(): Promise<{ eventTypes: EventTypeCount[] }> {
    return { eventTypes: await this.census.count() };
  }
}
