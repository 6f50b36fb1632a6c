import type { StreamId } from './event-envelope.js';

/** The append guard fired: the stream moved on since the events were decided. */
export class ConcurrencyError extends Error {
  constructor(
    readonly stream: StreamId,
    readonly expectedSequence: number,
    readonly actualSequence: number,
  ) {
    super(
      `stream ${stream.aggregateType}/${stream.aggregateId} is at sequence ${actualSequence}, expected ${expectedSequence}`,
    );
    this.name = 'ConcurrencyError';
  }
}

/** The command id was recorded for this stream before; nothing was appended. */
export class DuplicateCommandError extends Error {
  constructor(
    readonly stream: StreamId,
    readonly commandId: string,
  ) {
    super(`command ${commandId} was already handled for ${stream.aggregateType}/${stream.aggregateId}`);
    this.name = 'DuplicateCommandError';
  }
}

/** A fact with this external id is already on the stream; nothing was appended. */
export class DuplicateExternalIdError extends Error {
  constructor(
    readonly stream: StreamId,
    readonly externalId: string,
  ) {
    super(`an event with external id ${externalId} is already on ${stream.aggregateType}/${stream.aggregateId}`);
    this.name = 'DuplicateExternalIdError';
  }
}
