/** Why a buy-in failed: the request did not fit the table, or the table refused the seat. */
export const BUY_IN_FAILURES = ['INVALID_AMOUNT', 'SEAT_OCCUPIED', 'TABLE_FULL', 'SEATING_REJECTED'] as const;
export type BuyInFailureCode = (typeof BUY_IN_FAILURES)[number];

/**
 * The funds are reserved; `seat` -1 asks for any free seat. `topUp`: chips for the stack of a player
 * already seated (at `seat`, as the table was when the funds were reserved), not a seat.
 */
export class BuyInInitiated {
  constructor(
    readonly playerId: string,
    readonly tableId: string,
    readonly seat: number,
    readonly amount: number,
    readonly topUp: boolean = false,
  ) {}
}

export class BuyInCompleted {
  constructor(readonly seat: number) {}
}

export class BuyInFailed {
  constructor(
    readonly code: BuyInFailureCode,
    readonly reason: string,
  ) {}
}
