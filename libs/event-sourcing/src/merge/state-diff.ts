/**
 * The dot paths at which two states differ. Plain objects (and Maps) are compared key by key,
 * so `reservations.t1` changing is told apart from `bankroll`; anything else (arrays, dates,
 * primitives) is compared as a whole value.
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

/** Paths overlap when equal or when one lies inside the other (`reservations` and `reservations.t1`). */
export function overlappingPaths(changed: readonly string[], modified: readonly string[]): string[] {
  const inside = (a: string, b: string) => a === b || a.startsWith(`${b}.`);
  return modified.filter((m) => changed.some((c) => inside(c, m) || inside(m, c)));
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  if (value instanceof Map) return Object.fromEntries(value);
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)) {
    const proto = Object.getPrototypeOf(value);
    if (proto === Object.prototype || proto === null) return value as Record<string, unknown>;
  }
  return undefined;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  const left = asRecord(a);
  const right = asRecord(b);
  if (!left || !right) return false;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => deepEqual(left[key], right[key]));
}
