import type { Card, Seed, Variant } from '../cards/index.js';

export type Phase = 'DEALING' | 'PREFLOP' | 'FLOP' | 'TURN' | 'RIVER' | 'DRAW' | 'SHOWDOWN' | 'COMPLETE';

/** Where the hand is inside its phase (DRAW, for one, first draws and then bets). */
export type HandStatus = 'not_dealt' | 'posting_blinds' | 'betting' | 'round_closed' | 'drawing' | 'showdown' | 'complete';

export interface HandPlayerState {
  playerId: string;
  position: number;
  stack: number;
  holeCards: Card[];
  betThisRound: number;
  totalInvested: number;
  folded: boolean;
  allIn: boolean;
  hasActed: boolean;
  /** Five Card Draw: drew (possibly 0 cards) this hand. */
  hasDrawn: boolean;
  /** What the player did at the showdown. */
  shown: 'revealed' | 'mucked' | null;
}

/** Plain JSON: the framework snapshots and diffs it. */
export interface HandState {
  tableId: string;
  handNumber: number;
  variant: Variant;
  dealerPosition: number;
  smallBlind: number;
  bigBlind: number;
  /** The seed the deck was shuffled from; null when an explicit deck was given. */
  seed: Seed | null;
  /** In dealing order (the order DealCards listed them). */
  players: HandPlayerState[];
  /** What is left to deal, top first. */
  deck: Card[];
  communityCards: Card[];
  phase: Phase;
  status: HandStatus;
  smallBlindPosted: boolean;
  /**
   * The player whose turn it is, null when nobody is to act: in a betting round the one to bet; at a
   * contested showdown, once the first hand is shown, the one to show or muck next.
   */
  actionOn: string | null;
  /** Who bet or raised last in the current betting round (null: checked so far); shows first at the showdown. */
  lastAggressor: string | null;
  currentBet: number;
  minRaise: number;
  pot: number;
}

export function initialHandState(): HandState {
  return {
    tableId: '',
    handNumber: 0,
    variant: 'TEXAS_HOLDEM',
    dealerPosition: -1,
    smallBlind: 0,
    bigBlind: 0,
    seed: null,
    players: [],
    deck: [],
    communityCards: [],
    phase: 'DEALING',
    status: 'not_dealt',
    smallBlindPosted: false,
    actionOn: null,
    lastAggressor: null,
    currentBet: 0,
    minRaise: 0,
    pot: 0,
  };
}

/** A player as the deal seats them: nothing bet, nothing shown yet. */
export function dealtPlayer(playerId: string, position: number, stack: number, holeCards: readonly Card[]): HandPlayerState {
  return { playerId, position, stack, holeCards: [...holeCards], betThisRound: 0, totalInvested: 0, folded: false, allIn: false, hasActed: false, hasDrawn: false, shown: null };
}
