/** The one error model of the framework: the gateway throws these codes, HTTP answers them with their status. */
export enum ErrorCode {
  INVALID_ARGUMENT = 'INVALID_ARGUMENT',
  NOT_FOUND = 'NOT_FOUND',
  FAILED_PRECONDITION = 'FAILED_PRECONDITION',
  SEQUENCE_MISMATCH = 'SEQUENCE_MISMATCH',
  ABORTED = 'ABORTED',
  SYNC_TIMEOUT = 'SYNC_TIMEOUT',
  UNAVAILABLE = 'UNAVAILABLE',
  /** A Command-Id already recorded on the aggregate for a different command. */
  ALREADY_EXISTS = 'ALREADY_EXISTS',
  UNAUTHENTICATED = 'UNAUTHENTICATED',
  PERMISSION_DENIED = 'PERMISSION_DENIED',
  UNSUPPORTED_MEDIA_TYPE = 'UNSUPPORTED_MEDIA_TYPE',
  /** A rate limit refused the request (429). */
  RESOURCE_EXHAUSTED = 'RESOURCE_EXHAUSTED',
}

export const HTTP_STATUS_BY_CODE: Record<ErrorCode, number> = {
  [ErrorCode.INVALID_ARGUMENT]: 400,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.FAILED_PRECONDITION]: 409,
  [ErrorCode.SEQUENCE_MISMATCH]: 412,
  [ErrorCode.ABORTED]: 409,
  [ErrorCode.SYNC_TIMEOUT]: 504,
  [ErrorCode.UNAVAILABLE]: 503,
  [ErrorCode.ALREADY_EXISTS]: 409,
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.PERMISSION_DENIED]: 403,
  [ErrorCode.UNSUPPORTED_MEDIA_TYPE]: 415,
  [ErrorCode.RESOURCE_EXHAUSTED]: 429,
};
