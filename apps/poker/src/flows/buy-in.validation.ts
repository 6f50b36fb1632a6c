import { type TableState, topUpBeyondMax } from '../table/index.js';
import type { BuyInFailureCode } from './buy-in.events.js';

export interface BuyInProblem {
  code: BuyInFailureCode;
  reason: string;
}

/** A buy-in checked against the table's range, seats and size; null when it fits. */
export function buyInProblem(table: TableState, seat: number, amount: number): BuyInProblem | null {
  if (amount < table.minBuyIn || amount > table.maxBuyIn) {
    return { code: 'INVALID_AMOUNT', reason: `buy-in ${amount} is outside the table's range [${table.minBuyIn}, ${table.maxBuyIn}]` };
  }
  const taken = Object.keys(table.seats).length;
  if (taken >= table.maxPlayers) return { code: 'TABLE_FULL', reason: `table is full: ${taken} of ${table.maxPlayers} seats taken` };
  const occupant = table.seats[seat];
  if (occupant) return { code: 'SEAT_OCCUPIED', reason: `seat ${seat} is occupied by ${occupant.playerId}` };
  return null;
}

/** A top-up checked against the table's maxBuyIn and the player's stack; null when it fits (the table checks the rest). */
export function topUpProblem(table: TableState, playerId: string, amount: number): BuyInProblem | null {
  const reason = topUpBeyondMax(table, playerId, amount);
  return reason ? { code: 'INVALID_AMOUNT', reason } : null;
}
