import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandGateway } from '@nest-es/core';
import { Deposit } from './bench-aggregates.js';

/** Where the bare route is mounted: autocannon's requests go to `/${BARE_PREFIX}/bench-account/:id/Deposit`. */
export const BARE_PREFIX = 'bare';

/**
 * The command route as an application could write it without the framework's HTTP module: the same
 * request builds the Deposit and sends it through the gateway, and the answer has the command route's
 * shape. No body checks beyond the command's own validation, no guard, no error filter, no security
 * headers. Beside the framework's route, it shows what that module's contract costs per request.
 */
@Controller(`${BARE_PREFIX}/bench-account`)
export class BareCommandController {
  constructor(private readonly gateway: CommandGateway) {}

  @Post(':aggregateId/Deposit')
  @HttpCode(200)
  async send(@Param('aggregateId') aggregateId: string, @Body() body: { amount: number }): Promise<object> {
    const result = await this.gateway.send(new Deposit(aggregateId, body.amount));
    return {
      aggregateType: result.aggregateType,
      aggregateId: result.aggregateId,
      sequence: result.sequence,
      events: result.events.map(({ type, sequence, position, payload }) => ({ type, sequence, position, payload })),
    };
  }
}
