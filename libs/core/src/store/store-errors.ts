import type { StreamId } from '../model/event-envelope.js';

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

/** Network failures of a database connection (Node's socket error codes). */
const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL SQLSTATEs that say "the database cannot serve this now", not "this request is wrong":
 * connection exceptions (class 08), shutdown and startup (57P01-57P03), too many connections (53300),
 * a statement cancelled by statement_timeout (57014), a lock not granted in time (55P03).
 */
const UNAVAILABLE_SQLSTATES = /^(08...|57P0[123]|53300|57014|55P03)$/;

/** Messages of pg and pg-pool for a connection that is gone, late or closed. */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|Cannot use a pool after calling end|database connection is not open|Client was closed/i;

/**
 * Whether an error from a store means the database is unreachable, stalled or closing (answer
 * UNAVAILABLE and let the caller retry) rather than a bug. Looks through TypeORM's QueryFailedError
 * (`driverError`) and AggregateError (several addresses tried).
 */
export function isStoreUnavailableError(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > 3) return false;
  const { code, message, driverError, errors } = error as { code?: unknown; message?: unknown; driverError?: unknown; errors?: unknown };
  if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATES.test(code) || code === 'SQLITE_BUSY')) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  if (driverError !== undefined && isStoreUnavailableError(driverError, depth + 1)) return true;
  return Array.isArray(errors) && errors.some((inner) => isStoreUnavailableError(inner, depth + 1));
}
