import { Controller, Get, Param, Query } from '@nestjs/common';
import { AggregateReader, type AggregateSnapshotView } from '../command/aggregate-reader.js';
import { describe } from '../command/command-validation.js';
import { InvalidArgumentError } from '../errors/index.js';
import { MAX_SEQUENCE } from '../model/event-envelope.js';
import { toDetailedWireEvent, type WireEvent } from './wire-event.js';

/** `GET /aggregates/:type/:id` and its events (the write side's state and events, for the caller retry flow). */
@Controller('aggregates')
export class AggregateController {
  constructor(private readonly reader: AggregateReader) {}

  @Get(':aggregateType/:aggregateId')
  state(@Param('aggregateType') aggregateType: string, @Param('aggregateId') aggregateId: string): Promise<AggregateSnapshotView> {
    return this.reader.state(aggregateType, aggregateId);
  }

  @Get(':aggregateType/:aggregateId/events')
  async events(
    @Param('aggregateType') aggregateType: string,
    @Param('aggregateId') aggregateId: string,
    @Query('afterSequence') afterSequence?: string,
  ): Promise<{ aggregateType: string; aggregateId: string; events: WireEvent[] }> {
    if (afterSequence !== undefined && (typeof afterSequence !== 'string' || !/^\d{1,10}$/.test(afterSequence))) {
      throw new InvalidArgumentError(`afterSequence must be a whole number from 0 to ${MAX_SEQUENCE}, given once; got ${describe(afterSequence)}`);
    }
    const events = await this.reader.events(aggregateType, aggregateId, afterSequence === undefined ? 0 : Number(afterSequence));
    return { aggregateType, aggregateId, events: events.map(toDetailedWireEvent) };
  }
}
