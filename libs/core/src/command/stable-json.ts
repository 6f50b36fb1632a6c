/**
 * JSON with object keys in sorted order, so that equal commands built in any key order give the same
 * text. The same output as `fast-json-stable-stringify` (which fingerprints recorded before 0.3 were
 * made with: the spec holds the two to each other), without a dependency: `toJSON` is honoured,
 * `undefined`, functions and symbols are left out of objects and are `null` in arrays, non-finite
 * numbers are `null`, and a cycle throws.
 */
export function stableJson(value: unknown): string | undefined {
  return write(value, []);
}

function write(node: unknown, ancestors: object[]): string | undefined {
  if (node && typeof (node as { toJSON?: unknown }).toJSON === 'function') node = (node as { toJSON(): unknown }).toJSON();
  if (node === undefined) return undefined;
  if (typeof node === 'number') return Number.isFinite(node) ? String(node) : 'null';
  if (typeof node !== 'object') return JSON.stringify(node);
  if (node === null) return 'null';
  if (Array.isArray(node)) return `[${node.map((item) => write(item, ancestors) || 'null').join(',')}]`;
  if (ancestors.includes(node)) throw new TypeError('Converting circular structure to JSON');
  ancestors.push(node);
  const fields: string[] = [];
  for (const key of Object.keys(node).sort()) {
    const text = write((node as Record<string, unknown>)[key], ancestors);
    if (text) fields.push(`${JSON.stringify(key)}:${text}`);
  }
  ancestors.pop();
  return `{${fields.join(',')}}`;
}
