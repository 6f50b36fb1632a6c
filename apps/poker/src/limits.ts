/**
 * The ranges of the numbers the poker commands take. Every count of chips stays far inside
 * Number.MAX_SAFE_INTEGER, so a value a client sends is either held exactly or refused (400), never
 * rounded, and every sum of them stays exact too. The read models size their columns from these.
 */

/** Seats at one table. */
export const MAX_SEATS = 10;

/** The most chips one command moves or names: a deposit, a buy-in, a blind. Fits a 32-bit INTEGER. */
export const MAX_CHIPS_PER_COMMAND = 1_000_000_000;

/**
 * The most chips one table can hold: every seat bought in at the most. A stack, a bet, a pot or a
 * cash-out can grow to it, beyond 2^31: BIGINT columns in the read models.
 */
export const MAX_TABLE_CHIPS = MAX_SEATS * MAX_CHIPS_PER_COMMAND;

/** The most chips a bankroll may hold: a deposit beyond it is refused (BIGINT in the balances). */
export const MAX_BANKROLL = 1_000_000_000_000;

/** The most hands one table numbers: hand numbers fit a 32-bit INTEGER. */
export const MAX_HAND_NUMBER = 2 ** 31 - 1;
