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
};
