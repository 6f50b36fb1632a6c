import { InvalidArgumentError } from '../errors/index.js';

/** Deeper than this, a payload is refused: JSON parsers (PostgreSQL's among them) recurse per level. */
export const MAX_STORABLE_DEPTH = 64;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why a string cannot be stored on every supported database, or null if it can: PostgreSQL text and
 * json refuse NUL, and a lone surrogate is not Unicode (JSON text carrying one is refused or mangled).
 */
export function unstorableStringReason(value: string): string | null {
  if (value.includes('\u0000')) return 'contains the NUL character (\\u0000)';
  if (LONE_SURROGATE.test(value)) return 'contains a lone UTF-16 surrogate (not valid Unicode)';
  return null;
}

/**
 * Refuses a value the store could not write and read back as it is: a non-finite number (JSON writes
 * it as null), a BigInt, function or symbol (JSON cannot carry them or drops them), a Map or Set
 * (written as {}), a cycle, nesting beyond MAX_STORABLE_DEPTH, or a string or key that
 * `unstorableStringReason` refuses. The error names the field, from `path` down.
 */
export function assertStorable(value: unknown, path: string): void {
  const reason = check(value, path, 0, []);
  if (reason !== null) throw new InvalidArgumentError(`${reason.path} ${reason.text}: it cannot be stored`, { field: reason.path });
}

interface Reason {
  path: string;
  text: string;
}

function check(value: unknown, path: string, depth: number, ancestors: object[]): Reason | null {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? null : { path, text: `is ${value}, not a finite number` };
    case 'string': {
      const text = unstorableStringReason(value);
      return text === null ? null : { path, text };
    }
    case 'bigint':
    case 'function':
    case 'symbol':
      return { path, text: `is a ${typeof value}, which JSON cannot carry` };
    case 'object': {
      if (value === null) return null;
      if (depth >= MAX_STORABLE_DEPTH) return { path, text: `is nested more than ${MAX_STORABLE_DEPTH} levels deep` };
      if (ancestors.includes(value)) return { path, text: 'refers back to itself (a cycle)' };
      if (value instanceof Map || value instanceof Set) return { path, text: `is a ${value.constructor.name}, which JSON writes as {}` };
      // Dates and other values with toJSON are written as what toJSON gives.
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') return check(toJSON.call(value), path, depth, ancestors);
      ancestors.push(value);
      try {
        if (Array.isArray(value)) {
          for (let index = 0; index < value.length; index++) {
            const found = check(value[index], `${path}[${index}]`, depth + 1, ancestors);
            if (found) return found;
          }
          return null;
        }
        for (const key of Object.keys(value)) {
          const keyReason = unstorableStringReason(key);
          if (keyReason !== null) return { path: `${path}.${JSON.stringify(key)}`, text: `has a key that ${keyReason}` };
          const found = check((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1, ancestors);
          if (found) return found;
        }
        return null;
      } finally {
        ancestors.pop();
      }
    }
    default:
      return null;
  }
}
