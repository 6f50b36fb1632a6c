import { ErrorCode } from '@nest-es/core';
import { HTTP_STATUS_BY_CODE } from '@nest-es/core/internal';
import type { JsonSchema } from './openapi-document.js';

export const ERROR_BODY_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The error body of every failed request; some codes add details (SEQUENCE_MISMATCH: expectedSequence, actualSequence; ABORTED: deadLetterId).',
  required: ['statusCode', 'code', 'message'],
  properties: {
    statusCode: { type: 'integer', example: 409 },
    code: { type: 'string', enum: Object.values(ErrorCode) },
    message: { type: 'string', example: 'insufficient funds: available 500, requested 600' },
  },
  additionalProperties: true,
};

/** One response per HTTP status of the error model, listing its codes; `statuses` narrows them. */
export function errorResponses(errorBodyRef: string, statuses?: readonly number[]): Record<string, unknown> {
  const codesByStatus = new Map<number, string[]>();
  for (const [code, status] of Object.entries(HTTP_STATUS_BY_CODE)) {
    if (statuses !== undefined && !statuses.includes(status)) continue;
    codesByStatus.set(status, [...(codesByStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...codesByStatus].map(([status, codes]) => [
      String(status),
      {
        description: codes.join(' or '),
        content: { 'application/json': { schema: { allOf: [{ $ref: errorBodyRef }, { properties: { code: { enum: codes } } }] } } },
      },
    ]),
  );
}
