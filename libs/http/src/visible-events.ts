import type { AggregateReader, AggregateView, ReadContext } from '@nest-es/core';
import { principalOf } from './principal-of.js';
import { toDetailedWireEvent, type WireEvent } from './wire-event.js';

/** One page of an aggregate's events as one reader may see them. */
export interface VisiblePage {
  /** The events the view shows this reader, in sequence order, as the events route lists them. */
  shown: WireEvent[];
  /** The sequence the page read up to, hidden events included (the cursor of the next page). */
  last: number;
  /** More events follow `last`. */
  more: boolean;
}

/**
 * Reads up to `limit` events after `after` and passes each through the view; the view may hide an
 * event (undefined) or refuse the whole read by throwing. Shared by the events route and the live
 * stream, so both show one reader exactly the same events.
 */
export async function readVisibleEvents(
  reader: AggregateReader,
  view: AggregateView,
  request: object,
  stream: { aggregateType: string; aggregateId: string },
  after: number,
  limit: number,
): Promise<VisiblePage> {
  const { aggregateType, aggregateId } = stream;
  const { events, more } = await reader.eventPage(aggregateType, aggregateId, after, limit);
  const last = events.at(-1)?.sequence ?? after;
  const context: ReadContext = { principal: principalOf(request), aggregateType, aggregateId, sequence: last };
  const shown: WireEvent[] = [];
  for (const event of events) {
    const payload = view === true ? event.payload : view.event!(event, context);
    if (payload !== undefined) shown.push({ ...toDetailedWireEvent(event), payload });
  }
  return { shown, last, more };
}
