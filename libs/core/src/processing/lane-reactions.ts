import type { StoredEvent } from '../model/event-envelope.js';
import type { AggregateDispatcher } from '../scheduling/index.js';
import { isFinalDeliveryError } from './delivery-errors.js';
import type { Reactor } from './reactor.js';

/** A key's reaction that failed, and the events of that key in the batch that wait behind it. */
export interface LaneFailure {
  key: string;
  event: StoredEvent;
  error: unknown;
  behind: StoredEvent[];
}

/**
 * Reactions outside the commit: each key's events in order in its lane, different keys side by side,
 * until one of a key's reactions fails. Errors that end the delivery (stopping) are thrown.
 */
export async function reactInLanes(events: StoredEvent[], reactor: Reactor, lanes: AggregateDispatcher, laneName: string): Promise<LaneFailure[]> {
  const byKey = new Map<string, StoredEvent[]>();
  for (const event of events) {
    const key = reactor.keyOf(event);
    const list = byKey.get(key);
    if (list) list.push(event);
    else byKey.set(key, [event]);
  }
  const outcomes = await Promise.all(
    [...byKey].map(([key, list]) =>
      lanes.dispatch(laneName, key, async (): Promise<LaneFailure | undefined> => {
        for (const [index, event] of list.entries()) {
          try {
            await reactor.react(event, undefined);
          } catch (error) {
            return { key, event, error, behind: list.slice(index + 1) };
          }
        }
        return undefined;
      }),
    ),
  );
  const failures = outcomes.filter((outcome): outcome is LaneFailure => outcome !== undefined);
  const final = failures.find((failure) => isFinalDeliveryError(failure.error));
  if (final) throw final.error;
  return failures;
}
