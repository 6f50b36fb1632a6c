import { Controller, Get, Param, Query, UseFilters, UseGuards } from '@nestjs/common';
import { StreamInspector, type InspectedPage, type InspectedState } from '@nest-es/core/internal';
import { EventSourcingAdminGuard } from '../configured-guards.js';
import { EventSourcingExceptionFilter } from '../event-sourcing-exception.filter.js';
import { wholeNumber } from '../paging.js';
import { afterSequence } from './console-inputs.js';

/** Events per page when the caller gives no `limit`, and the most one page takes: each event is sent twice (stored and read). */
const DEFAULT_EVENTS = 50;
const MAX_EVENTS = 200;

/**
 * `GET <console>/api/streams[/:type/:id[/events]]`: the aggregate types, one aggregate's state and its
 * events as stored and as this code reads them; behind `http.adminGuard`, whatever the views show readers.
 */
@Controller()
@UseFilters(EventSourcingExceptionFilter)
@UseGuards(EventSourcingAdminGuard)
export class ConsoleStreamsController {
  constructor(private readonly inspector: StreamInspector) {}

  @Get()
  aggregateTypes(): { aggregates: Array<{ type: string; hasView: boolean }> } {
    return { aggregates: this.inspector.aggregateTypes() };
  }

  @Get(':aggregateType/:aggregateId')
  state(@Param('aggregateType') aggregateType: string, @Param('aggregateId') aggregateId: string): Promise<InspectedState> {
    return this.inspector.state(aggregateType, aggregateId);
  }

  /** `after`: the sequence to read after (0, the default: from the start); `nextAfter` is there when more follow. */
  @Get(':aggregateType/:aggregateId/events')
  events(
    @Param('aggregateType') aggregateType: string,
    @Param('aggregateId') aggregateId: string,
    @Query('after') after?: unknown,
    @Query('limit') limit?: unknown,
  ): Promise<InspectedPage> {
    const size = limit === undefined ? DEFAULT_EVENTS : wholeNumber('limit', limit, 1, MAX_EVENTS);
    return this.inspector.page(aggregateType, aggregateId, afterSequence(after), size);
  }
}
