import type { StoredEvent } from '../model/event-envelope.js';
import type { AggregateDispatcher } from '../scheduling/index.js';
import { isFinalDeliveryError } from './delivery-errors.js';
import type { KeyFailure, Reactor } from './reactor.js';

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
        const failed = await (reactor.reactInOrder ? reactor.reactInOrder(list) : oneByOne(list, reactor));
        return failed && { key, event: list[failed.index], error: failed.error, behind: list.slice(failed.index + 1) };
      }),
    ),
  );
  const failures = outcomes.filter((outcome): outcome is LaneFailure => outcome !== undefined);
  const final = failures.find((failure) => isFinalDeliveryError(failure.error));
  if (final) throw final.error;
  return failures;
}

async function oneByOne(events: StoredEvent[], reactor: Reactor): Promise<KeyFailure | undefined> {
  for (const [index, event] of events.entries()) {
    try {
      await reactor.react(event, undefined);
    } catch (error) {
      return { index, error };
    }
  }
  return undefined;
}
