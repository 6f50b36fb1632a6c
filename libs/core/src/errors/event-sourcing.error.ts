import { ErrorCode } from './error-code.js';

/**
 * Base of every error the framework raises on purpose. `details` travel to the HTTP body
 * next to `code` and `message`, so they must be plain JSON.
 */
export class EventSourcingError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidArgumentError extends EventSourcingError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(ErrorCode.INVALID_ARGUMENT, message, details);
  }
}

export class NotFoundError extends EventSourcingError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(ErrorCode.NOT_FOUND, message, details);
  }
}

/** Thrown by command handlers when a business rule refuses the command. */
export class FailedPreconditionError extends EventSourcingError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(ErrorCode.FAILED_PRECONDITION, message, details);
  }
}

export class SequenceMismatchError extends EventSourcingError {
  constructor(
    message: string,
    readonly expectedSequence: number,
    readonly actualSequence: number,
    details: Record<string, unknown> = {},
  ) {
    super(ErrorCode.SEQUENCE_MISMATCH, message, { expectedSequence, actualSequence, ...details });
  }
}

export class AbortedError extends EventSourcingError {
  constructor(message: string, readonly deadLetterId: string) {
    super(ErrorCode.ABORTED, message, { deadLetterId });
  }
}

export class SyncTimeoutError extends EventSourcingError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(ErrorCode.SYNC_TIMEOUT, message, details);
  }
}

/** The command id was recorded on this aggregate for another command (type or payload differ). */
export class AlreadyExistsError extends EventSourcingError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(ErrorCode.ALREADY_EXISTS, message, details);
  }
}

export class UnavailableError extends EventSourcingError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(ErrorCode.UNAVAILABLE, message, details);
  }
}

/** No credentials, or credentials that do not hold (expired, forged), where a guard requires them. */
export class UnauthenticatedError extends EventSourcingError {
  constructor(message: string) {
    super(ErrorCode.UNAUTHENTICATED, message);
  }
}

/** The caller is known but may not send this command or read this. */
export class PermissionDeniedError extends EventSourcingError {
  constructor(message: string) {
    super(ErrorCode.PERMISSION_DENIED, message);
  }
}

/** A command body that is not `application/json` (what cross-site forms send is refused here). */
export class UnsupportedMediaTypeError extends EventSourcingError {
  constructor(message: string) {
    super(ErrorCode.UNSUPPORTED_MEDIA_TYPE, message);
  }
}
