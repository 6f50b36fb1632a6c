import { Injectable, type Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { CommandGateway } from '../command/command-gateway.js';
import { describe } from '../command/command-validation.js';
import type { CommandResult } from '../model/send-options.js';
import { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import { AlreadyExistsError, FailedPreconditionError, InvalidArgumentError } from '../errors/index.js';
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

  async retry(letter: DeadLetter, body: Record<string, unknown>): Promise<CommandResult> {
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
    try {
      return await this.resend(letter, handler.commandClass, context, expectedSequence);
    } catch (error) {
      if (!(error instanceof AlreadyExistsError)) throw error;
      // A parked command does not hold its command id: another command took it since.
      throw new FailedPreconditionError(
        `dead letter ${letter.id}: its command id '${context.commandId}' was used by another command on ${letter.aggregateType}/${letter.aggregateId} since it was parked; discard the letter, and send the command again under a new command id if it is still wanted`,
      );
    }
  }

  private resend(letter: DeadLetter, commandClass: Type, context: ParkedCommandContext, expectedSequence: number): Promise<CommandResult> {
    return this.gateway.send(plainToInstance(commandClass, letter.payload) as object, {
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
