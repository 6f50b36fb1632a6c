import { Body, Controller, Get, HttpCode, Post, Req, UseFilters, UseGuards } from '@nestjs/common';
import { HeldEventRetrier, SubscriberOverviewReader, type HeldEventRetry, type SubscribersOverview } from '@nest-es/core/internal';
import { EventSourcingAdminGuard } from '../configured-guards.js';
import { EventSourcingExceptionFilter } from '../event-sourcing-exception.filter.js';
import type { HttpRequest } from '../http-request.js';
import { principalOf } from '../principal-of.js';
import { assertObjectBody } from '../command-body.js';
import { checkpointName, position } from './console-inputs.js';

/** `GET <console>/api/subscribers` and the held events' "retry now"; behind `http.adminGuard`. */
@Controller()
@UseFilters(EventSourcingExceptionFilter)
@UseGuards(EventSourcingAdminGuard)
export class ConsoleSubscribersController {
  constructor(
    private readonly overview: SubscriberOverviewReader,
    private readonly retrier: HeldEventRetrier,
  ) {}

  @Get()
  subscribers(): Promise<SubscribersOverview> {
    return this.overview.read();
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
