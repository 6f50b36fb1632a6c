import { InvalidArgumentError } from '@nest-es/core';

/**
 * The request body as the object a route's fields are read from: a JSON array (`[]` or `[{...}]`),
 * null, a string or a number is refused (400 INVALID_ARGUMENT) rather than read as an object without
 * fields, which let an array through to the checks after validation. No body at all is `{}`: the
 * validation then names each missing field.
 */
export function jsonObject(body: unknown, what: string): object {
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new InvalidArgumentError(`the body of ${what} must be a JSON object, got ${Array.isArray(body) ? 'an array' : JSON.stringify(body)}`);
  }
  return body;
}
