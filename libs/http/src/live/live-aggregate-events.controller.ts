import { Controller, Get, Logger, Param, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { AggregateReader, EventSourcingError } from '@nest-es/core';
import { errorMessage, EventSourcingRegistry } from '@nest-es/core/internal';
import { EventSourcingGuard } from '../configured-guards.js';
import { EventSourcingExceptionFilter } from '../event-sourcing-exception.filter.js';
import type { HttpRequest } from '../http-request.js';
import { DEFAULT_PAGE_SIZE } from '../paging.js';
import { readableView } from '../readable-aggregate.js';
import { readVisibleEvents, type VisiblePage } from '../visible-events.js';
import { LiveEventWatcher } from './live-event-watcher.js';
import { LiveStream } from './live-stream.js';
import { resumeCursor } from './resume-cursor.js';
import { SseResponse } from './sse-response.js';

/** Events per read of a live stream: the most one client's socket buffer holds while it does not drain. */
const LIVE_BATCH_SIZE = DEFAULT_PAGE_SIZE;

/**
 * `GET /aggregates/:type/:id/events/live`: the aggregate's events as server-sent events, from after
 * `Last-Event-ID` (or `?after=`), then each new one as it is committed. Same guards, view and refusals
 * as `GET .../events`: until the first page is read and shown, every error is answered with its
 * status and the error body; once the stream is open, a refusal or a failed read ends it.
 */
@Controller('aggregates')
@UseFilters(EventSourcingExceptionFilter)
@UseGuards(EventSourcingGuard)
export class LiveAggregateEventsController {
  private readonly logger = new Logger('LiveEvents');

  constructor(
    private readonly reader: AggregateReader,
    private readonly registry: EventSourcingRegistry,
    private readonly watcher: LiveEventWatcher,
  ) {}

  @Get(':aggregateType/:aggregateId/events/live')
  async live(
    @Param('aggregateType') aggregateType: string,
    @Param('aggregateId') aggregateId: string,
    @Req() request: HttpRequest,
    @Res() response: unknown,
    @Query('after') after?: unknown,
  ): Promise<void> {
    const view = readableView(this.registry, aggregateType, 'event');
    const cursor = resumeCursor(request, after);
    const read = (from: number) => readVisibleEvents(this.reader, view, request, { aggregateType, aggregateId }, from, LIVE_BATCH_SIZE);
    this.watcher.reserve();
    let first: VisiblePage;
    try {
      first = await read(cursor);
      // Shutdown may have begun during the read; from here to `add` nothing awaits, so it cannot begin unseen.
      this.watcher.assertOpen();
    } catch (error) {
      this.watcher.release();
      throw error;
    }
    const sse = SseResponse.takeOver(response);
    const stream = new LiveStream(aggregateType, aggregateId, cursor, read, sse, (error) => this.failed(stream, error));
    this.watcher.add(stream, (listener) => sse.onClose(listener));
    stream.open(first);
  }

  /** A refusal by the view or the id rules is the reader's; anything else (the store away) is worth a line in the log. */
  private failed(stream: LiveStream, error: unknown): void {
    if (!(error instanceof EventSourcingError)) {
      this.logger.warn(`live stream of ${stream.aggregateType}/${stream.aggregateId} ended: ${errorMessage(error)}`);
    }
    stream.end();
  }
}
