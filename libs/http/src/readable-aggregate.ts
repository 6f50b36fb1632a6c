import { type AggregateView, NotFoundError } from '@nest-es/core';
import type { EventSourcingRegistry } from '@nest-es/core/internal';

/**
 * The view of an aggregate type readable over HTTP by its state or its events. Types without a view,
 * or whose view lacks that part, answer 404 like unknown types: what is not served is not revealed.
 */
export function readableView(registry: EventSourcingRegistry, aggregateType: string, part: 'state' | 'event'): AggregateView {
  const aggregate = registry.aggregate(aggregateType);
  const view = aggregate?.view;
  if (!aggregate || !view || (view !== true && !view[part])) {
    throw new NotFoundError(`no aggregate type '${aggregateType}' is readable over HTTP${part === 'event' ? ' by its events' : ''}`);
  }
  return view;
}
