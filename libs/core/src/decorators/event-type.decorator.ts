import { EVENT_TYPE_METADATA } from './constants.js';

/** Turns a stored payload of one version into the payload of the next; pure, no I/O. */
export type Upcaster = (payload: any) => unknown;

export interface EventTypeOptions {
  /** The shape's version, stored with every event written. Default 1. */
  version?: number;
  /** Payload upcasters by the version they read: `{1: v1 => v2, 2: v2 => v3}`; one for every version below `version`. */
  upcasters?: Record<number, Upcaster>;
  /** Names this event was stored under before (its former class name, say): read as this type. */
  formerNames?: string[];
}

/** What an event class is stored as. */
export interface EventTypeInfo {
  name: string;
  version: number;
  upcasters: Readonly<Record<number, Upcaster>>;
  formerNames: readonly string[];
}

/**
 * Gives an event class a stable stored name and a version, so the class can be renamed (or a
 * bundler can minify it) without orphaning stored events: `@EventType('poker.FundsDeposited',
 * {version: 2, upcasters: {1: (v1) => ({...v1, currency: 'EUR'})}})`. Without it the stored name
 * is the class name and the version 1, as stores written before names existed expect.
 */
export function EventType(name: string, options: EventTypeOptions = {}): ClassDecorator {
  if (typeof name !== 'string' || name.trim() === '') throw new Error('@EventType needs a non-empty name');
  const version = options.version ?? 1;
  if (!Number.isSafeInteger(version) || version < 1) throw new Error(`@EventType('${name}') version must be a whole number >= 1, got ${version}`);
  return (target) => {
    const info: EventTypeInfo = { name, version, upcasters: options.upcasters ?? {}, formerNames: options.formerNames ?? [] };
    Reflect.defineMetadata(EVENT_TYPE_METADATA, info, target);
  };
}

/** The stored name and version of an event class (own metadata only: a subclass is its own event). */
export function eventTypeOf(classRef: Function): EventTypeInfo {
  return (
    (Reflect.getOwnMetadata(EVENT_TYPE_METADATA, classRef) as EventTypeInfo | undefined) ?? { name: classRef.name, version: 1, upcasters: {}, formerNames: [] }
  );
}

/** The stored name of an event class or instance. */
export function eventTypeName(event: Function | object): string {
  return eventTypeOf(typeof event === 'function' ? event : event.constructor).name;
}
