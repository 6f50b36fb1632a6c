import { Controller, Get, Param, Query, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import type { ReadContext } from '../model/aggregate-view.js';
import { principalOf } from './principal-of.js';
import { AggregateReader, type AggregateSnapshotView } from '../command/aggregate-reader.js';
import { describe } from '../command/command-validation.js';
import type { AggregateDefinition } from '../model/aggregate-definition.js';
import { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import { InvalidArgumentError, NotFoundError } from '../errors/index.js';
import { MAX_SEQUENCE } from '../model/event-envelope.js';
import { EventSourcingGuard } from './configured-guards.js';
import { toDetailedWireEvent, type WireEvent } from './wire-event.js';

/**
 * `GET /aggregates/:type/:id` and its events, mounted by `http.aggregateReads`, for aggregates that
 * declare a `view`: the reader sees what the view gives them. Others answer 404 like unknown types.
 */
@Controller('aggregates')
@UseGuards(EventSourcingGuard)
export class AggregateController {
  constructor(
    private readonly reader: AggregateReader,
    private readonly registry: EventSourcingRegistry,
  ) {}

  @Get(':aggregateType/:aggregateId')
  async state(@Param('aggregateType') aggregateType: string, @Param('aggregateId') aggregateId: string, @Req() request: Request): Promise<AggregateSnapshotView> {
    const view = this.readable(aggregateType, 'state').view!;
    const { state, sequence } = await this.reader.state(aggregateType, aggregateId);
    const reader: ReadContext = { principal: principalOf(request), aggregateType, aggregateId, sequence };
    return { state: view === true ? state : view.state!(state, reader), sequence };
  }

  @Get(':aggregateType/:aggregateId/events')
  async events(
    @Param('aggregateType') aggregateType: string,
    @Param('aggregateId') aggregateId: string,
    @Req() request: Request,
    @Query('afterSequence') afterSequence?: string,
  ): Promise<{ aggregateType: string; aggregateId: string; events: WireEvent[] }> {
    const view = this.readable(aggregateType, 'event').view!;
    if (afterSequence !== undefined && (typeof afterSequence !== 'string' || !/^\d{1,10}$/.test(afterSequence))) {
      throw new InvalidArgumentError(`afterSequence must be a whole number from 0 to ${MAX_SEQUENCE}, given once; got ${describe(afterSequence)}`);
    }
    const after = afterSequence === undefined ? 0 : Number(afterSequence);
    const events = await this.reader.events(aggregateType, aggregateId, after);
    const reader: ReadContext = { principal: principalOf(request), aggregateType, aggregateId, sequence: events.at(-1)?.sequence ?? after };
    const shown: WireEvent[] = [];
    for (const event of events) {
      const payload = view === true ? event.payload : view.event!(event, reader);
      if (payload !== undefined) shown.push({ ...toDetailedWireEvent(event), payload });
    }
    return { aggregateType, aggregateId, events: shown };
  }

  private readable(aggregateType: string, part: 'state' | 'event'): AggregateDefinition {
    const aggregate = this.registry.aggregate(aggregateType);
    const view = aggregate?.view;
    if (!aggregate || !view || (view !== true && !view[part])) {
      throw new NotFoundError(`no aggregate type '${aggregateType}' is readable over HTTP${part === 'event' ? ' by its events' : ''}`);
    }
    return aggregate;
  }
}
