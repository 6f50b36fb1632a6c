import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { plainToInstance } from 'class-transformer';
import { AggregateReader } from '../command/aggregate-reader.js';
import { CommandGateway } from '../command/command-gateway.js';
import { InvalidArgumentError, NotFoundError } from '../errors/index.js';
import { sendOptionsFromHeaders } from './command-headers.js';
import { toWireEvent, type WireEvent } from './wire-event.js';

export interface CommandResponse {
  aggregateType: string;
  aggregateId: string;
  sequence: number;
  events: WireEvent[];
}

/** `POST /commands/:aggregateType/:aggregateId/:commandType`: the command's payload is the body, its options the headers. */
@Controller('commands')
export class CommandController {
  constructor(
    private readonly gateway: CommandGateway,
    private readonly reader: AggregateReader,
  ) {}

  @Post(':aggregateType/:aggregateId/:commandType')
  @HttpCode(200)
  async send(
    @Param('aggregateType') aggregateType: string,
    @Param('aggregateId') aggregateId: string,
    @Param('commandType') commandType: string,
    @Body() body: unknown,
    @Req() request: Request,
  ): Promise<CommandResponse> {
    const aggregate = this.reader.aggregate(aggregateType);
    const handler = aggregate.commandHandlers.get(commandType);
    if (!handler) {
      throw new NotFoundError(
        `aggregate '${aggregateType}' has no command ${commandType}; known: ${[...aggregate.commandHandlers.keys()].join(', ')}`,
      );
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new InvalidArgumentError(`the body of ${commandType} must be a JSON object`);
    }
    const options = { ...sendOptionsFromHeaders(request.headersDistinct), aggregateId };
    const command = plainToInstance(handler.commandClass, body) as object;
    const result = await this.gateway.send(command, options);
    return {
      aggregateType: result.aggregateType,
      aggregateId: result.aggregateId,
      sequence: result.sequence,
      events: result.events.map(toWireEvent),
    };
  }
}
