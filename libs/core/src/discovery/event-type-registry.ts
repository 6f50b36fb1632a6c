import type { Type } from '@nestjs/common';
import { eventTypeOf, type EventTypeInfo } from '../decorators/event-type.decorator.js';
import type { StoredEvent } from '../model/event-envelope.js';
import type { EventUpcaster } from '../store/upcasting-event-store.js';

export interface EventTypeDefinition extends EventTypeInfo {
  classRef: Type;
}

/**
 * Every event class the application knows, by stored name (and former names), filled at boot.
 * Reading through it brings a stored event to the current version of its type: its former name
 * becomes the current one and its payload goes through the upcasters from its stored version on.
 */
export class EventTypeRegistry implements EventUpcaster {
  private readonly byName = new Map<string, EventTypeDefinition>();
  private readonly byFormerName = new Map<string, EventTypeDefinition>();

  /** Adds an event class; a second class with the same stored name, or a gap in its upcasters, is a boot problem. */
  add(classRef: Type, problems: string[]): void {
    const info = eventTypeOf(classRef);
    const known = this.byName.get(info.name) ?? this.byFormerName.get(info.name);
    if (known) {
      if (known.classRef !== classRef) problems.push(`event type '${info.name}' is declared by two classes: ${known.classRef.name} and ${classRef.name}`);
      return;
    }
    const missing = Array.from({ length: info.version - 1 }, (_, index) => index + 1).filter((version) => typeof info.upcasters[version] !== 'function');
    if (missing.length > 0) {
      problems.push(`event type '${info.name}' (${classRef.name}) is version ${info.version} but has no upcaster from version ${missing.join(', ')}`);
    }
    const definition = { ...info, classRef };
    this.byName.set(info.name, definition);
    for (const former of info.formerNames) {
      const clash = this.byName.get(former) ?? this.byFormerName.get(former);
      if (clash && clash !== definition) problems.push(`event type name '${former}' is used by ${clash.classRef.name} and is a former name of ${classRef.name}`);
      else this.byFormerName.set(former, definition);
    }
  }

  /** The event type stored under `name` (current or former). */
  get(name: string): EventTypeDefinition | undefined {
    return this.byName.get(name) ?? this.byFormerName.get(name);
  }

  storedNames(type: string): readonly string[] {
    const definition = this.byName.get(type);
    return definition === undefined ? [type] : [definition.name, ...definition.formerNames];
  }

  all(): EventTypeDefinition[] {
    return [...this.byName.values()];
  }

  /** Unknown types and versions newer than this code's pass unchanged: nothing here can read them better. */
  upcast(events: StoredEvent[]): StoredEvent[] {
    let result: StoredEvent[] | undefined;
    for (let i = 0; i < events.length; i++) {
      const event = events[i];
      const definition = this.byName.get(event.type) ?? this.byFormerName.get(event.type);
      if (definition === undefined || (definition.name === event.type && event.schemaVersion >= definition.version)) continue;
      result ??= events.slice();
      result[i] = upcastOne(event, definition);
    }
    return result ?? events;
  }
}

function upcastOne(event: StoredEvent, definition: EventTypeDefinition): StoredEvent {
  let payload = event.payload;
  let version = event.schemaVersion;
  for (; version < definition.version; version++) {
    try {
      payload = definition.upcasters[version](payload);
    } catch (error) {
      throw new Error(`upcasting ${event.type} at position ${event.position} from version ${version} failed: ${(error as Error).message}`, { cause: error });
    }
  }
  return { ...event, type: definition.name, schemaVersion: Math.max(version, event.schemaVersion), payload };
}
