import type { PlayerType } from './player.commands.js';

export interface PlayerState {
  registered: boolean;
  displayName: string;
  email: string;
  playerType: PlayerType;
  bankroll: number;
  /** tableId -> chips reserved for that table. */
  reservations: Record<string, number>;
  reserved: number;
  available: number;
  status: 'active' | 'sitting_out';
}

export function initialPlayerState(): PlayerState {
  return {
    registered: false,
    displayName: '',
    email: '',
    playerType: 'HUMAN',
    bankroll: 0,
    reservations: {},
    reserved: 0,
    available: 0,
    status: 'active',
  };
}
