import { Inject, Injectable } from '@nestjs/common';
import { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import { EVENT_STORE_ADAPTER, type EventStore } from '../store/event-store.js';

/** How this code reads the stored events of one type and version. */
export type EventTypeReading =
  /** Stored as the code writes it today. */
  | 'current'
  /** A former name or an older version: read through the upcasters. */
  | 'upcast'
  /** No event class declares this name (a renamed class without its former name, or a removed one). */
  | 'unknown-type'
  /** Written by newer code than this one: read as stored. */
  | 'newer-than-code';

/** The stored events of one type at one schema version. */
export interface EventTypeCount {
  type: string;
  schemaVersion: number;
  events: number;
  firstPosition: number;
  lastPosition: number;
  reading: EventTypeReading;
  /** The type's current name and version in this code (absent for unknown types). */
  current?: { type: string; version: number };
}

export interface EventTypeCensusProgress {
  position: number;
  /** The store's head when the census began; events appended later are not counted. */
  target: number;
}

const PAGE_SIZE = 5000;

/**
 * Counts the stored events by type and schema version (reading the adapter's rows as stored, before
 * any upcasting) and says how this code reads each: the check to run before deploying code that
 * renames or versions events.
 */
@Injectable()
export class EventTypeCensus {
  constructor(
    private readonly registry: EventSourcingRegistry,
    @Inject(EVENT_STORE_ADAPTER) private readonly store: EventStore,
  ) {}

  async count(onProgress: (progress: EventTypeCensusProgress) => void = () => undefined): Promise<EventTypeCount[]> {
    const target = await this.store.headPosition();
    const counts = new Map<string, EventTypeCount>();
    let position = 0;
    while (position < target) {
      const page = await this.store.readAll({ afterPosition: position, limit: PAGE_SIZE });
      if (page.length === 0) break;
      for (const event of page) {
        if (event.position > target) break;
        const key = `${event.type}\u0000${event.schemaVersion}`;
        const known = counts.get(key);
        if (known) {
          known.events++;
          known.lastPosition = event.position;
        } else {
          counts.set(key, { ...this.reading(event.type, event.schemaVersion), events: 1, firstPosition: event.position, lastPosition: event.position });
        }
      }
      position = page.at(-1)!.position;
      onProgress({ position: Math.min(position, target), target });
    }
    return [...counts.values()].sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : a.schemaVersion - b.schemaVersion));
  }

  private reading(type: string, schemaVersion: number): Pick<EventTypeCount, 'type' | 'schemaVersion' | 'reading' | 'current'> {
    const definition = this.registry.eventTypes.get(type);
    if (!definition) return { type, schemaVersion, reading: 'unknown-type' };
    const current = { type: definition.name, version: definition.version };
    if (schemaVersion > definition.version) return { type, schemaVersion, reading: 'newer-than-code', current };
    return { type, schemaVersion, reading: definition.name === type && schemaVersion === definition.version ? 'current' : 'upcast', current };
  }
}
