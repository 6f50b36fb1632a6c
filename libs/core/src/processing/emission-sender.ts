import { Injectable } from '@nestjs/common';
import { CommandGateway } from '../command/command-gateway.js';
import { ErrorCode } from '../errors/error-code.js';
import { EventSourcingError } from '../errors/event-sourcing.error.js';
import type { StoredEvent } from '../model/event-envelope.js';
import { deterministicId } from './deterministic-id.js';
import { isFact, type CommandRejection, type Emission } from './emissions.js';
import { FactAppender } from './fact-appender.js';

export interface EmissionCause {
  /** Parts the emitted command ids are derived from: the same cause always yields the same ids. */
  idBase: Array<string | number>;
  correlationId: string;
  causationId: string;
  event?: StoredEvent;
}

/** Compensations of compensations stop here (sagas and process managers alike): a loop of refusals is a bug, not a workflow. */
export const MAX_COMPENSATION_DEPTH = 5;

/** Codes that say "not now" rather than "no": the delivery is retried, never handed to `@OnRejected`. */
const TRANSIENT_CODES = new Set<string>([ErrorCode.UNAVAILABLE, ErrorCode.SYNC_TIMEOUT]);

/**
 * Sends what sagas and process managers emit, in order, with deterministic command ids and the
 * workflow's correlation id; a command its target refuses comes back as a rejection.
 */
@Injectable()
export class EmissionSender {
  constructor(
    private readonly gateway: CommandGateway,
    private readonly facts: FactAppender,
  ) {}

  async send(emissions: Emission[], cause: EmissionCause): Promise<CommandRejection[]> {
    const rejections: CommandRejection[] = [];
    for (const [index, emission] of emissions.entries()) {
      if (isFact(emission)) {
        await this.facts.append(emission, cause);
        continue;
      }
      const commandId = deterministicId(...cause.idBase, index);
      try {
        await this.gateway.sendInternal(emission.command, {
          commandId,
          correlationId: cause.correlationId,
          causationId: cause.causationId,
          aggregateId: emission.aggregateId,
          expectedSequence: emission.expectedSequence,
          mergeStrategy: emission.mergeStrategy,
        });
      } catch (error) {
        if (!(error instanceof EventSourcingError) || TRANSIENT_CODES.has(error.code)) throw error;
        rejections.push({
          command: emission.command,
          commandType: emission.command.constructor.name,
          commandId,
          code: error.code,
          message: error.message,
          details: error.details,
          cause: cause.event,
        });
      }
    }
    return rejections;
  }
}
