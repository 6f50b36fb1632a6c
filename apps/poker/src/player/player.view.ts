import { type AggregateView, PermissionDeniedError, type ReadContext } from '@nest-es/core';
import type { PlayerState } from './player.state.js';

function ownerOnly(reader: ReadContext): void {
  if (reader.principal?.id !== reader.aggregateId) throw new PermissionDeniedError(`only ${reader.aggregateId} may read their own player record`);
}

/** A player's record (email, bankroll) and its events are the player's own. */
export const playerView: AggregateView<PlayerState> = {
  state: (state, reader) => {
    ownerOnly(reader);
    return state;
  },
  event: (event, reader) => {
    ownerOnly(reader);
    return event.payload;
  },
};
