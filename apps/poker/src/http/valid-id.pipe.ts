import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { InvalidArgumentError } from '@nest-es/core';

/** The framework's limit on an aggregate id (its `validateId`, which @nest-es/core does not export). */
export const MAX_ID_LENGTH = 200;

/** Control characters (NUL among them: PostgreSQL text refuses it) and lone UTF-16 surrogates (not Unicode). */
const UNFIT = /\p{Cc}|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

/** Why `value` cannot be an id, or null if it can: the framework's rule, and no control characters either. */
export function idProblem(value: string): string | null {
  if (value.length === 0 || value.length > MAX_ID_LENGTH) return `must be a non-empty string of at most ${MAX_ID_LENGTH} characters, got ${value.length}`;
  if (UNFIT.test(value)) return 'contains a control character or a lone surrogate';
  return null;
}

/**
 * Refuses an id in a route's path that no aggregate can have (400 INVALID_ARGUMENT), before any query:
 * a NUL would make PostgreSQL fail the query (500) where SQLite answers 404, so both say 400 here.
 */
@Injectable()
export class ValidIdPipe implements PipeTransform<string, string> {
  transform(value: string, { data }: ArgumentMetadata): string {
    const problem = idProblem(value);
    if (problem) throw new InvalidArgumentError(`${data ?? 'id'} ${problem}`);
    return value;
  }
}
