const SNAPSHOT_RESULT = Symbol('event-sourcing:with-snapshot');

export interface HandlerResultWithSnapshot {
  [SNAPSHOT_RESULT]: true;
  events: object[];
  state: unknown;
}

/** What a command handler may return. */
export type HandlerResult = object | object[] | void | null | undefined | HandlerResultWithSnapshot;

/**
 * Client-driven snapshotting: return the events together with the state after them, and the
 * framework persists that state as a snapshot once the events are stored. The aggregate knows
 * best when its state is worth keeping (after a session closes, say), whatever the policy.
 */
export function withSnapshot(events: object | object[], state: unknown): HandlerResultWithSnapshot {
  return { [SNAPSHOT_RESULT]: true, events: Array.isArray(events) ? events : [events], state };
}

export interface NormalizedHandlerResult {
  events: object[];
  snapshotState?: unknown;
}

export function normalizeHandlerResult(result: HandlerResult): NormalizedHandlerResult {
  if (result === undefined || result === null) return { events: [] };
  if (Array.isArray(result)) return { events: result };
  if ((result as HandlerResultWithSnapshot)[SNAPSHOT_RESULT]) {
    const { events, state } = result as HandlerResultWithSnapshot;
    return { events, snapshotState: state };
  }
  return { events: [result] };
}
