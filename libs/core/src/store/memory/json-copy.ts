/** What a database would hand back: a JSON round trip, so no caller shares objects with the store. */
export function jsonCopy<T>(value: T): T {
  return value === undefined ? (null as T) : (JSON.parse(JSON.stringify(value)) as T);
}
