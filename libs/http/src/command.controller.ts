import { Body, Controller, Logger, type OnApplicationBootstrap, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { EventSourcingExceptionFilter } from './event-sourcing-exception.filter.js';
import { plainToInstance } from 'class-transformer';
import { principalOf } from './principal-of.js';
import { CommandGateway } from '@nest-es/core';
import { EventSourcingRegistry } from '@nest-es/core/internal';
import { InvalidArgumentError, NotFoundError, UnsupportedMediaTypeError } from '@nest-es/core';
import { assertObjectBody } from './command-body.js';
import { undeclaredFields } from './declared-fields.js';
import { sendOptionsFromHeaders } from './command-headers.js';
import { streamProgress, wantsProgress } from './command-progress-stream.js';
import { EventSourcingGuard } from './configured-guards.js';
import { type HttpRequest, incomingMessageOf, isJsonContentType } from './http-request.js';
import { toWireEvent, type WireEvent } from './wire-event.js';

/** Set on the answer to a command whose `Command-Id` was already stored: the body is the first result. */
export const IDEMPOTENT_REPLAYED = 'Idempotent-Replayed';

export interface CommandResponse {
  aggregateType: string;
  aggregateId: string;
  sequence: number;
  events: WireEvent[];
}

/**
 * `POST /commands/:aggregateType/:aggregateId/:commandType`, for commands marked `http: true` only.
 * The principal a guard left on `request.user` goes with the command to the authorizer and its events.
 */
@Controller('commands')
@UseFilters(EventSourcingExceptionFilter)
@UseGuards(EventSourcingGuard)
export class CommandController implements OnApplicationBootstrap {
  private readonly logger = new Logger('EventSourcingHttp');

  constructor(
    private readonly gateway: CommandGateway,
    private readonly registry: EventSourcingRegistry,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    const exposed = this.registry.exposedCommands().map((handler) => `${handler.aggregate.type}.${handler.commandType}`);
    this.logger.log(`commands routable over HTTP: ${exposed.length > 0 ? exposed.join(', ') : 'none'}`);
  }

  @Post(':aggregateType/:aggregateId/:commandType')
  async send(
    @Param('aggregateType') aggregateType: string,
    @Param('aggregateId') aggregateId: string,
    @Param('commandType') commandType: string,
    @Body() body: unknown,
    @Req() request: HttpRequest,
    @Res() response: unknown,
  ): Promise<void> {
    const handler = this.registry.exposedCommand(aggregateType, commandType);
    if (!handler) {
      // Unknown and unexposed commands get the same answer: internal ones stay invisible.
      const known = this.registry.exposedCommands().filter((h) => h.aggregate.type === aggregateType).map((h) => h.commandType);
      throw new NotFoundError(`no command ${commandType} on '${aggregateType}' can be sent over HTTP${known.length > 0 ? `; these can: ${known.join(', ')}` : ''}`);
    }
    // Cross-site forms can only send form or text bodies: requiring JSON closes that door.
    const contentType = request.headers['content-type'];
    if (!isJsonContentType(contentType)) {
      throw new UnsupportedMediaTypeError(`the body of ${commandType} must be application/json, got ${contentType ?? 'no body'}`);
    }
    assertObjectBody(body, commandType);
    const undeclared = undeclaredFields(handler.commandClass, body, handler.aggregateIdProperty ? [handler.aggregateIdProperty] : []);
    if (undeclared) throw new InvalidArgumentError(undeclared);
    const options = { ...sendOptionsFromHeaders(incomingMessageOf(request).headersDistinct), aggregateId, principal: principalOf(request), authorize: true };
    const progress = wantsProgress(request.headers.accept);
    if (progress && options.syncMode !== undefined) {
      throw new InvalidArgumentError('a command sent with Accept: text/event-stream streams its progress instead of waiting: leave Sync-Mode out');
    }
    const command = plainToInstance(handler.commandClass, body) as object;
    const result = await this.gateway.send(command, options);
    const answer: CommandResponse = {
      aggregateType: result.aggregateType,
      aggregateId: result.aggregateId,
      sequence: result.sequence,
      events: result.events.map(toWireEvent),
    };
    if (progress) return streamProgress(this.gateway, result, answer, response);
    const http = this.adapterHost.httpAdapter;
    // The same Command-Id sent again: the first result, said so.
    if (result.duplicate) http.setHeader(response, IDEMPOTENT_REPLAYED, 'true');
    http.reply(response, answer, 200);
  }
}
