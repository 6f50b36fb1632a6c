import type { AggregateView } from '@nest-es/core';
import type { Card } from '../cards/index.js';
import type { HandPlayerState, HandState } from './hand.state.js';

export type HandPlayerView = Omit<HandPlayerState, 'holeCards'> & { holeCards: Card[] | null };
export type PublicHandState = Omit<HandState, 'deck' | 'seed' | 'players'> & { players: HandPlayerView[] };

/**
 * What a reader may see of a hand: never the deck or its seed; hole cards only the reader's own,
 * and everyone's once shown at the showdown. Its events carry the deck, so they are not served.
 */
export const handView: AggregateView<HandState> = {
  state: (state, reader): PublicHandState => {
    const { deck: _deck, seed: _seed, players, ...shown } = state;
    return {
      ...shown,
      players: players.map((player) => ({
        ...player,
        holeCards: player.playerId === reader.principal?.id || player.shown === 'revealed' ? player.holeCards : null,
      })),
    };
  },
};
