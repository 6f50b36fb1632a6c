import type { StoredEvent } from './event-envelope.js';
import type { Principal } from './principal.js';

/** Who reads which aggregate, at which sequence. */
export interface ReadContext {
  principal: Principal | undefined;
  aggregateType: string;
  aggregateId: string;
  sequence: number;
}

/**
 * What `GET /aggregates/...` may show of an aggregate. `true` shows state and events as stored (for
 * aggregates with nothing to hide). Otherwise `state` maps the state to what this reader may see and
 * `event` one event to what may be seen of it (undefined hides it); a route without its function is not
 * served. Either may throw PermissionDeniedError or UnauthenticatedError to refuse the read.
 */
export type AggregateView<State = unknown> =
  | true
  | {
      state?(state: State, reader: ReadContext): unknown;
      event?(event: StoredEvent, reader: ReadContext): unknown;
    };
