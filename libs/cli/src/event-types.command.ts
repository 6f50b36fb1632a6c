import { EventTypeCensus, type EventTypeCount, type EventTypeReading } from '@nest-es/core/internal';
import { withApplication, type MaintenanceEntry } from './application.js';
import { createProgress } from './progress.js';

/** `events types`: the exit code (1 when some stored events are of a type or version this code cannot read as current). */
export function eventTypes(entry: MaintenanceEntry): Promise<number> {
  return withApplication(entry, { enabled: false }, async (context) => {
    const progress = createProgress('events [{bar}] {value}/{total} positions | ETA {eta_formatted}', (value, of) => `events: position ${value}/${of}`);
    progress.start(0);
    const counts = await context
      .get(EventTypeCensus)
      .count((step) => {
        progress.setTotal(step.target);
        progress.update(step.position);
      })
      .finally(() => progress.stop());
    console.log(formatEventTypes(counts));
    const unreadable = counts.filter((count) => count.reading === 'unknown-type' || count.reading === 'newer-than-code');
    if (unreadable.length === 0) return 0;
    console.error(`${unreadable.reduce((sum, count) => sum + count.events, 0)} stored event(s) have no upcaster to a version this code declares: see the table`);
    return 1;
  });
}

const READINGS: Record<EventTypeReading, (count: EventTypeCount) => string> = {
  current: () => 'current',
  upcast: (count) => `upcast to ${count.current!.type} v${count.current!.version}`,
  'unknown-type': () => 'NO EVENT CLASS: no upcaster reads it',
  'newer-than-code': (count) => `NEWER than this code's v${count.current!.version}: no upcaster reads it`,
};

export function formatEventTypes(counts: EventTypeCount[]): string {
  if (counts.length === 0) return 'the store has no events';
  const rows = [
    ['type', 'version', 'events', 'first position', 'last position', 'read as'],
    ...counts.map((count) => [count.type, `v${count.schemaVersion}`, String(count.events), String(count.firstPosition), String(count.lastPosition), READINGS[count.reading](count)]),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd()).join('\n');
}
