import { Body, Controller, Get, HttpCode, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { HeldEventRetrier, SubscriberOverviewReader, type HeldEventRetry, type SubscribersOverview } from '@nest-es/core/internal';
import { EventSourcingAdminGuard } from '../configured-guards.js';
import { EventSourcingExceptionFilter } from '../event-sourcing-exception.filter.js';
import type { HttpRequest } from '../http-request.js';
import { principalOf } from '../principal-of.js';
import { assertObjectBody } from '../command-body.js';
import { SseResponse } from '../live/sse-response.js';
import { checkpointName, position } from './console-inputs.js';
import { ConsoleSubscribersFeed } from './console-subscribers-feed.js';

/** `GET <console>/api/subscribers`, its live feed and the held events' "retry now"; behind `http.adminGuard`. */
@Controller()
@UseFilters(EventSourcingExceptionFilter)
@UseGuards(EventSourcingAdminGuard)
export class ConsoleSubscribersController {
  constructor(
    private readonly overview: SubscriberOverviewReader,
    private readonly retrier: HeldEventRetrier,
    private readonly feed: ConsoleSubscribersFeed,
  ) {}

  @Get()
  subscribers(): Promise<SubscribersOverview> {
    return this.overview.read();
  }

  /**
   * The same view as server-sent events (`event: subscribers`), sent again whenever it changes.
   * Refusals (the cap, shutdown, a failed first read) are answered with their status before the
   * stream opens.
   */
  @Get('live')
  async live(@Res() response: unknown): Promise<void> {
    this.feed.assertRoom();
    const first = await this.feed.view();
    this.feed.assertRoom();
    this.feed.add(SseResponse.takeOver(response), first);
  }

  /**
   * Body `{checkpoint, position}`: the held event's key is tried at its subscription's next look,
   * in this process (409 naming the instance to ask when another one runs that checkpoint).
   */
  @Post('held/retry')
  @HttpCode(200)
  retryHeld(@Body() body: unknown, @Req() request: HttpRequest): Promise<HeldEventRetry> {
    assertObjectBody(body, 'a held-event retry');
    return this.retrier.retryNow(checkpointName(body.checkpoint), position(body.position), principalOf(request)?.id);
  }
}
