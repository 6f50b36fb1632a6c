import type { WireEvent } from '../wire-event.js';

/**
 * A server-sent event named `name` with `data` as its JSON, and an `id` when given. JSON.stringify
 * never emits a line break, so the data is always one `data:` line.
 */
export function sseMessage(name: string, data: unknown, id?: number): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${sseFieldValue(name)}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * One stored event: its sequence as the id (what `Last-Event-ID` brings back on a reconnect), its
 * type as the event name, and the JSON the events route lists for it as the data.
 */
export function sseEventMessage(event: WireEvent): string {
  return sseMessage(event.type, event, event.sequence);
}

/**
 * The first bytes of every stream, before any event: some proxies forward nothing (not even the
 * headers) until the body starts, and a client sees at once that it is connected.
 */
export const SSE_OPENING = ': connected\n\n';

/** A comment line: clients ignore it, proxies see traffic and keep the connection open. */
export const SSE_HEARTBEAT = ': heartbeat\n\n';

/** A field value stays on its line: a line break in a type name would start a field of its own. */
function sseFieldValue(value: string): string {
  return value.replace(/[\r\n]/g, ' ');
}
