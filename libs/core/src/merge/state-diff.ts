/**
 * The dot paths at which two states differ. Objects (plain or class instances, compared by their
 * own enumerable keys) and Maps are walked key by key, so `reservations.t1` changing is told
 * apart from `bankroll`; arrays, Sets, Dates and primitives are compared as whole values.
 * Two states that are not objects and differ give `['*']`: nothing finer can be told.
 */
export function changedPaths(before: unknown, after: unknown, prefix = ''): string[] {
  if (Object.is(before, after)) return [];
  const left = asRecord(before);
  const right = asRecord(after);
  if (!left || !right) return deepEqual(before, after) ? [] : [prefix || '*'];
  const paths: string[] = [];
  for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
    paths.push(...changedPaths(left[key], right[key], prefix ? `${prefix}.${key}` : key));
  }
  return paths;
}

/** The declared paths that overlap a changed one: equal, or one inside the other (`reservations` and `reservations.t1`). */
export function overlappingPaths(changed: readonly string[], modified: readonly string[]): string[] {
  const inside = (a: string, b: string) => a === b || a.startsWith(`${b}.`);
  return modified.filter((m) => changed.some((c) => inside(c, m) || inside(m, c)));
}

/** A state a command handler produced may hold class instances; a snapshot's copy of it is plain JSON. Both walk alike. */
function asRecord(value: unknown): Record<string, unknown> | undefined {
  if (value instanceof Map) return Object.fromEntries([...value].map(([key, item]) => [String(key), item]));
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value) || value instanceof Set || value instanceof Date) return undefined;
  return value as Record<string, unknown>;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  if (a instanceof Set && b instanceof Set) return a.size === b.size && [...a].every((item) => b.has(item));
  const left = asRecord(a);
  const right = asRecord(b);
  return left !== undefined && right !== undefined && changedPaths(left, right).length === 0;
}
