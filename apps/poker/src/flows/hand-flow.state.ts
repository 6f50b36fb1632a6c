import type { Card, Variant } from '../cards/index.js';

export interface FlowPlayerState {
  playerId: string;
  position: number;
  folded: boolean;
  /** Undefined until the showdown: then the cards shown, or null when mucked. */
  shown?: Card[] | null;
}

export interface HandFlowState {
  /** Null until HandStarted: the flow only follows the hand it started. */
  handId: string | null;
  tableId: string;
  variant: Variant;
  actionTimeoutMs: number;
  dealerPosition: number;
  players: FlowPlayerState[];
  /** Whose turn it is; null between rounds and after the betting. */
  actionOn: string | null;
  status: 'waiting' | 'playing' | 'showdown' | 'complete';
}

export function initialHandFlowState(): HandFlowState {
  return {
    handId: null,
    tableId: '',
    variant: 'TEXAS_HOLDEM',
    actionTimeoutMs: 0,
    dealerPosition: -1,
    players: [],
    actionOn: null,
    status: 'waiting',
  };
}

export function contenders(state: HandFlowState): FlowPlayerState[] {
  return state.players.filter((player) => !player.folded);
}
