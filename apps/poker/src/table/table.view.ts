import type { AggregateView } from '@nest-es/core';
import type { TableState } from './table.state.js';

/** Seats, stacks and terms are public at a poker table; a hand's deck seed is not. */
export const tableView: AggregateView<TableState> = {
  state: (state) => state,
  event: (event) => {
    if (event.type !== 'HandStarted') return event.payload;
    const { deckSeed: _secret, ...shown } = event.payload as { deckSeed?: unknown };
    return shown;
  },
};
