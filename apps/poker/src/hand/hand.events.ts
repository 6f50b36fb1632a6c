import type { Award, Card, Ranking, Seed, Variant } from '../cards/index.js';
import type { BettingAction, BlindType } from './hand.commands.js';
import type { Phase } from './hand.state.js';

// Events that hand the turn to someone carry `actionOn` (who acts next, null for nobody), so the
// hand flow and the table view need not recompute turn order.

export interface DealtHand {
  playerId: string;
  position: number;
  stack: number;
  holeCards: Card[];
}

export class CardsDealt {
  constructor(
    readonly tableId: string,
    readonly handNumber: number,
    readonly variant: Variant,
    readonly players: DealtHand[],
    readonly remainingDeck: Card[],
    readonly dealerPosition: number,
    readonly smallBlind: number,
    readonly bigBlind: number,
    /** The seed the deck came from (drawn at random when none was given); null for an explicit deck. */
    readonly seed: Seed | null,
  ) {}
}

/** After the big blind, `actionOn` is the first player preflop and `amountToCall` what they face. */
export class BlindPosted {
  constructor(
    readonly playerId: string,
    readonly blindType: BlindType,
    readonly amount: number,
    readonly playerStack: number,
    readonly potTotal: number,
    readonly actionOn: string | null,
    readonly amountToCall: number,
  ) {}
}

/**
 * `amount`: chips this action put in. `action` is ALL_IN whenever they were the whole stack.
 * `amountToCall`: what `actionOn`, the next to act, must put in to call (0: they may check).
 */
export class ActionTaken {
  constructor(
    readonly playerId: string,
    readonly action: BettingAction,
    readonly amount: number,
    readonly playerStack: number,
    readonly potTotal: number,
    readonly amountToCall: number,
    readonly actionOn: string | null,
  ) {}
}

/**
 * `phase`: the phase whose betting round closed. `firstToShow`: when the round leads to a contested
 * showdown, who shows first; otherwise null (absent from rounds stored before the showdown went in
 * turns). `firstShown`: the hand showed that hand itself, in the events right after this one; false
 * (absent) in rounds stored before it did, whose first hand the hand flow shows. `awarded`: one
 * player was left, and the hand awarded them the pot in the events right after this one; false
 * (absent) in hands stored before the hand awarded its own pot, whose flow sends AwardPot.
 * `streetDealt`: the hand dealt the next street (Hold'em, Omaha) in the event right after this one;
 * false (absent) in rounds stored before it did, whose flow sends DealCommunityCards.
 */
export class BettingRoundComplete {
  constructor(
    readonly phase: Phase,
    readonly firstToShow: string | null = null,
    readonly firstShown: boolean = false,
    readonly awarded: boolean = false,
    readonly streetDealt: boolean = false,
  ) {}
}

export class CommunityCardsDealt {
  constructor(
    readonly cards: Card[],
    readonly phase: Phase,
    readonly allCommunityCards: Card[],
    readonly actionOn: string | null,
  ) {}
}

/** `actionOn` is null until the last player has drawn; then it opens the final betting round. */
export class DrawCompleted {
  constructor(
    readonly playerId: string,
    readonly cardsDiscarded: Card[],
    readonly cardsDrawn: Card[],
    readonly actionOn: string | null,
  ) {}
}

/**
 * The showdown goes in turns: `actionOn` is who shows or mucks next (null once everyone still in
 * has; absent from events stored before the showdown went in turns). A hand that can still win is
 * shown in its turn without waiting: one RevealCards may record several of these, in turn order.
 * `awarded`: this event ended the showdown, and the hand awarded the pot in the events right after
 * it; false (absent) in hands stored before the hand awarded its own pot, whose flow sends AwardPot.
 */
export class CardsRevealed {
  constructor(
    readonly playerId: string,
    readonly cards: Card[],
    readonly ranking: Ranking,
    readonly actionOn: string | null = null,
    readonly awarded: boolean = false,
  ) {}
}

/** `actionOn` and `awarded`: as for CardsRevealed. */
export class CardsMucked {
  constructor(
    readonly playerId: string,
    readonly actionOn: string | null = null,
    readonly awarded: boolean = false,
  ) {}
}

export class PotAwarded {
  constructor(readonly awards: Award[]) {}
}

/**
 * `finalStacks`: playerId -> stack after the awards. `stackChanges`: playerId -> won (+) or lost (-)
 * this hand, and `tableId`/`handId`, so the hand->table saga can send EndHand from this event alone.
 */
export class HandComplete {
  constructor(
    readonly tableId: string,
    readonly handId: string,
    readonly finalStacks: Record<string, number>,
    readonly stackChanges: Record<string, number>,
  ) {}
}
