import { InvalidArgumentError } from '@nest-es/core';

/** Deeper command bodies are refused before class-transformer walks them (it recurses once per level). */
export const MAX_BODY_DEPTH = 32;

/**
 * Keys class-transformer treats as the object's machinery rather than data: `{"x":{"constructor":1}}`
 * makes it call `1` as a class. No command field can sensibly carry these names.
 */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Checks a parsed request body before it becomes a class instance: a JSON object, nested at most
 * MAX_BODY_DEPTH levels, without prototype keys at any depth. Iterative, so a hostile depth cannot
 * overflow the stack here either. `name` names the body in the answer (a command type, a class).
 */
export function assertObjectBody(body: unknown, name: string): asserts body is Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new InvalidArgumentError(`the body of ${name} must be a JSON object, got ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body}`);
  }
  const pending: { value: object; path: string; depth: number }[] = [{ value: body, path: name, depth: 1 }];
  while (pending.length > 0) {
    const { value, path, depth } = pending.pop()!;
    if (depth > MAX_BODY_DEPTH) throw new InvalidArgumentError(`${path} is nested more than ${MAX_BODY_DEPTH} levels deep`);
    for (const key of Object.keys(value)) {
      if (!Array.isArray(value) && PROTOTYPE_KEYS.has(key)) {
        throw new InvalidArgumentError(`${path} has the key '${key}', which a request body may not use`);
      }
      const child = (value as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object') pending.push({ value: child, path: `${path}.${key}`, depth: depth + 1 });
    }
  }
}
