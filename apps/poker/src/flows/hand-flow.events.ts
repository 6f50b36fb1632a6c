import type { Award, Card, Variant } from '../cards/index.js';

// The hand flow's own events: what it learned from the hand, recorded so its state (and so every
// later decision) replays the same after a restart or a redelivery.

export interface FlowPlayer {
  playerId: string;
  position: number;
}

export class HandFlowStarted {
  constructor(
    readonly handId: string,
    readonly tableId: string,
    readonly variant: Variant,
    readonly actionTimeoutMs: number,
    readonly dealerPosition: number,
    readonly players: FlowPlayer[],
  ) {}
}

/** A player's blind or action, and whether it folded (stored ones also carry the `playerStack` left). */
export class BetSeen {
  constructor(
    readonly playerId: string,
    readonly folded: boolean,
  ) {}
}

/** `handSequence`: the hand's sequence when the turn began; the timeout acts only if the hand is still there. */
export class TurnStarted {
  constructor(
    readonly playerId: string,
    readonly amountToCall: number,
    readonly handSequence: number,
  ) {}
}

/** No longer recorded: steps stored before the hand awarded its own pot hold it. */
export class BoardSeen {
  constructor(readonly communityCards: Card[]) {}
}

/** Everybody still in is asked to show. */
export class ShowdownStarted {
  constructor(readonly contenders: string[]) {}
}

/** `cards` null: mucked. */
export class HandShown {
  constructor(
    readonly playerId: string,
    readonly cards: Card[] | null,
  ) {}
}

export class HandFlowCompleted {
  constructor(readonly awards: Award[]) {}
}
