import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { CommandGateway } from '../command/command-gateway.js';
import { describe } from '../command/command-validation.js';
import type { CommandResult } from '../model/send-options.js';
import { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import { FailedPreconditionError, InvalidArgumentError } from '../errors/index.js';
import { MergeStrategy } from '../model/merge-strategy.js';
import type { ParkedCommandContext } from '../merge/parked-command.js';
import type { DeadLetter } from '../store/dead-letter-store.js';

/**
 * Retries dead letters of kind 'command' (parked by the MANUAL merge): the command is rebuilt
 * from its stored type and payload and sent through the gateway as itself (same command id and
 * correlation id), on the current state, with the sequence its reviewer decided on.
 */
@Injectable()
export class CommandDeadLetterRetrier {
  constructor(
    private readonly registry: EventSourcingRegistry,
    private readonly gateway: CommandGateway,
  ) {}

  retry(letter: DeadLetter, body: Record<string, unknown>): Promise<CommandResult> {
    const { expectedSequence } = body;
    if (typeof expectedSequence !== 'number' || !Number.isSafeInteger(expectedSequence) || expectedSequence < 0) {
      throw new InvalidArgumentError(
        `retrying a parked command needs expectedSequence, the sequence its reviewer decided on (a whole number >= 0), got ${describe(expectedSequence)}`,
      );
    }
    const handler = this.registry.aggregate(letter.aggregateType)?.commandHandlers.get(letter.messageType);
    if (!handler) {
      throw new FailedPreconditionError(`dead letter ${letter.id} holds ${letter.messageType} for aggregate '${letter.aggregateType}', which nothing handles now`);
    }
    const context = letter.context as unknown as ParkedCommandContext;
    return this.gateway.send(plainToInstance(handler.commandClass, letter.payload) as object, {
      aggregateId: letter.aggregateId,
      commandId: context.commandId,
      correlationId: context.correlationId,
      causationId: context.causationId ?? undefined,
      metadata: context.metadata,
      expectedSequence,
      // The reviewer decided on exactly this sequence: if the aggregate moved on again they must
      // look again (412), rather than the command being merged or parked a second time.
      mergeStrategy: MergeStrategy.STRICT,
    });
  }
}
