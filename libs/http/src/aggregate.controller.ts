import { Controller, Get, Param, Query, Req, UseFilters, UseGuards } from '@nestjs/common';
import { EventSourcingExceptionFilter } from './event-sourcing-exception.filter.js';
import type { ReadContext } from '@nest-es/core';
import { principalOf } from './principal-of.js';
import { AggregateReader, type AggregateSnapshotView } from '@nest-es/core';
import { EventSourcingRegistry } from '@nest-es/core/internal';
import { MAX_SEQUENCE } from '@nest-es/core/internal';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, wholeNumber } from './paging.js';
import { EventSourcingGuard } from './configured-guards.js';
import type { HttpRequest } from './http-request.js';
import type { WireEvent } from './wire-event.js';
import { readableView } from './readable-aggregate.js';
import { readVisibleEvents } from './visible-events.js';

/**
 * `GET /aggregates/:type/:id` and its events, mounted by `http.aggregateReads`, for aggregates that
 * declare a `view`: the reader sees what the view gives them. Others answer 404 like unknown types.
 */
/** A page of `GET /aggregates/:type/:id/events`. */
export interface EventPage {
  aggregateType: string;
  aggregateId: string;
  events: WireEvent[];
  /** The `afterSequence` of the next page; absent on the last page. */
  nextAfterSequence?: number;
}

@Controller('aggregates')
@UseFilters(EventSourcingExceptionFilter)
@UseGuards(EventSourcingGuard)
export class AggregateController {
  constructor(
    private readonly reader: AggregateReader,
    private readonly registry: EventSourcingRegistry,
  ) {}

  @Get(':aggregateType/:aggregateId')
  async state(@Param('aggregateType') aggregateType: string, @Param('aggregateId') aggregateId: string, @Req() request: HttpRequest): Promise<AggregateSnapshotView> {
    const view = readableView(this.registry, aggregateType, 'state');
    const { state, sequence } = await this.reader.state(aggregateType, aggregateId);
    const reader: ReadContext = { principal: principalOf(request), aggregateType, aggregateId, sequence };
    return { state: view === true ? state : view.state!(state, reader), sequence };
  }

  /**
   * One page of the aggregate's events: `afterSequence` is the cursor (0 = from the start), `limit`
   * the page size; `nextAfterSequence` is there when more events follow.
   */
  @Get(':aggregateType/:aggregateId/events')
  async events(
    @Param('aggregateType') aggregateType: string,
    @Param('aggregateId') aggregateId: string,
    @Req() request: HttpRequest,
    @Query('afterSequence') afterSequence?: unknown,
    @Query('limit') limit?: unknown,
  ): Promise<EventPage> {
    const view = readableView(this.registry, aggregateType, 'event');
    const after = afterSequence === undefined ? 0 : wholeNumber('afterSequence', afterSequence, 0, MAX_SEQUENCE);
    const size = limit === undefined ? DEFAULT_PAGE_SIZE : wholeNumber('limit', limit, 1, MAX_PAGE_SIZE);
    const { shown, last, more } = await readVisibleEvents(this.reader, view, request, { aggregateType, aggregateId }, after, size);
    return { aggregateType, aggregateId, events: shown, ...(more ? { nextAfterSequence: last } : {}) };
  }
}
