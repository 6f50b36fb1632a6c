import type { Variant } from '../cards/index.js';
import { DEFAULT_BOT_DELAY_MS } from './table.commands.js';

export class TableCreated {
  constructor(
    readonly name: string,
    readonly variant: Variant,
    readonly smallBlind: number,
    readonly bigBlind: number,
    readonly minBuyIn: number,
    readonly maxBuyIn: number,
    readonly maxPlayers: number,
    readonly actionTimeoutMs: number,
    /** Absent from tables created before bots were paced by the server: DEFAULT_BOT_DELAY_MS. */
    readonly botDelayMs?: number,
  ) {}
}

export class PlayerJoined {
  constructor(
    readonly playerId: string,
    readonly seat: number,
    readonly buyIn: number,
    readonly stack: number,
  ) {}
}

/** `stack`: the seat's stack with the top-up. */
export class PlayerToppedUp {
  constructor(
    readonly playerId: string,
    readonly seat: number,
    readonly amount: number,
    readonly stack: number,
  ) {}
}

/**
 * `boughtIn`: the chips the player brought to the table, the buy-in and every top-up (what the
 * session settles against the reservation); absent for a seat taken before the table kept it.
 */
export class PlayerLeft {
  constructor(
    readonly playerId: string,
    readonly seat: number,
    readonly chipsCashedOut: number,
    readonly boughtIn?: number,
  ) {}
}

export interface HandPlayer {
  playerId: string;
  position: number;
  stack: number;
}

/** `players` run clockwise from the seat after the dealer (the dealer last): the dealing order. */
export class HandStarted {
  constructor(
    readonly handId: string,
    readonly handNumber: number,
    readonly variant: Variant,
    readonly dealerPosition: number,
    readonly smallBlindPosition: number,
    readonly bigBlindPosition: number,
    readonly smallBlind: number,
    readonly bigBlind: number,
    readonly players: HandPlayer[],
    // The table's id and timeout ride along, so the sagas and the hand flow need nothing but this event.
    readonly tableId: string,
    readonly actionTimeoutMs: number,
    /** StartHand's seed, for the deck; null: shuffled at random. */
    readonly deckSeed: string | null = null,
    /** How long the server lets a bot think before it moves for it. */
    readonly botDelayMs: number = DEFAULT_BOT_DELAY_MS,
  ) {}
}

export class HandEnded {
  constructor(
    readonly handId: string,
    readonly stackChanges: Record<string, number>,
  ) {}
}

/** Facts from the player saga: the table cannot refuse them. */
export class PlayerSatOut {
  constructor(readonly playerId: string) {}
}

export class PlayerSatIn {
  constructor(readonly playerId: string) {}
}
