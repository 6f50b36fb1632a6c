/** Appends one entry to a list kept on the class, for the method decorators below. */
export function pushClassMetadata<T>(key: string, target: object, entry: T): void {
  const ctor = target.constructor;
  const list: T[] = Reflect.getOwnMetadata(key, ctor) ?? [];
  Reflect.defineMetadata(key, [...list, entry], ctor);
}
