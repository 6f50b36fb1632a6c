import type { Variant } from '../cards/index.js';
import { DEFAULT_ACTION_TIMEOUT_MS, DEFAULT_BOT_DELAY_MS } from './table.commands.js';

export interface Seat {
  playerId: string;
  stack: number;
  sittingOut: boolean;
  /** The buy-in and every top-up since; absent for a seat taken before the table kept it. */
  boughtIn?: number;
}

export type TableStatus = 'waiting' | 'in_hand';

export interface TableState {
  created: boolean;
  name: string;
  variant: Variant;
  smallBlind: number;
  bigBlind: number;
  minBuyIn: number;
  maxBuyIn: number;
  maxPlayers: number;
  actionTimeoutMs: number;
  botDelayMs: number;
  /** Keyed by seat position ('0' .. '9'), so joins at different seats merge field by field. */
  seats: Record<string, Seat>;
  /** -1 until the first hand. */
  dealerPosition: number;
  handCount: number;
  currentHandId: string | null;
  status: TableStatus;
}

export function initialTableState(): TableState {
  return {
    created: false,
    name: '',
    variant: 'TEXAS_HOLDEM',
    smallBlind: 0,
    bigBlind: 0,
    minBuyIn: 0,
    maxBuyIn: 0,
    maxPlayers: 0,
    actionTimeoutMs: DEFAULT_ACTION_TIMEOUT_MS,
    botDelayMs: DEFAULT_BOT_DELAY_MS,
    seats: {},
    dealerPosition: -1,
    handCount: 0,
    currentHandId: null,
    status: 'waiting',
  };
}
