import type { Award, Card, Ranking, Variant } from '../cards/index.js';
import {
  type ActionTaken,
  type BettingAction,
  type BettingRoundComplete,
  type BlindPosted,
  type CardsMucked,
  type CardsRevealed,
  type CommunityCardsDealt,
  type DrawCompleted,
  type HandComplete,
  lastBettingRound,
  type Phase,
} from '../hand/index.js';
import type { HandStarted } from '../table/index.js';

/** What everyone at the table may see of a player in the hand (hole cards only once shown). */
export interface HandViewPlayer {
  playerId: string;
  position: number;
  stack: number;
  /** Chips in front of the player in the current betting round. */
  bet: number;
  folded: boolean;
  allIn: boolean;
  /** Five Card Draw: cards exchanged, once drawn. */
  drew: number | null;
  shown: Card[] | null;
  ranking: Ranking | null;
  mucked: boolean;
}

/** The public state of one hand, for the web page. */
export interface HandView {
  handId: string;
  handNumber: number;
  variant: Variant;
  phase: Phase;
  dealerPosition: number;
  smallBlindPosition: number;
  bigBlindPosition: number;
  communityCards: Card[];
  pot: number;
  /** Whose turn it is: to bet, or at the showdown (once the first hand is shown) to show or muck. */
  actionOn: string | null;
  amountToCall: number;
  /** Dealing order: clockwise from the seat after the dealer, which is also the order of the draw. */
  players: HandViewPlayer[];
  lastAction: { playerId: string; action: BettingAction | 'SMALL_BLIND' | 'BIG_BLIND'; amount: number } | null;
  awards: Award[] | null;
}

// Each function applies one hand event to the view, mirroring the hand aggregate's public effects.

export function handViewStarted(event: HandStarted): HandView {
  return {
    handId: event.handId,
    handNumber: event.handNumber,
    variant: event.variant,
    phase: 'DEALING',
    dealerPosition: event.dealerPosition,
    smallBlindPosition: event.smallBlindPosition,
    bigBlindPosition: event.bigBlindPosition,
    communityCards: [],
    pot: 0,
    actionOn: null,
    amountToCall: 0,
    players: event.players.map(({ playerId, position, stack }) => ({
      playerId,
      position,
      stack,
      bet: 0,
      folded: false,
      allIn: false,
      drew: null,
      shown: null,
      ranking: null,
      mucked: false,
    })),
    lastAction: null,
    awards: null,
  };
}

export function handViewDealt(view: HandView): void {
  view.phase = 'PREFLOP';
}

export function handViewChips(view: HandView, event: BlindPosted | ActionTaken): void {
  const player = playerIn(view, event.playerId);
  player.stack = event.playerStack;
  player.bet += event.amount;
  player.allIn = event.playerStack === 0;
  view.pot = event.potTotal;
  view.actionOn = event.actionOn;
  view.amountToCall = event.amountToCall;
  if ('blindType' in event) {
    view.lastAction = { playerId: event.playerId, action: event.blindType === 'small' ? 'SMALL_BLIND' : 'BIG_BLIND', amount: event.amount };
    return;
  }
  if (event.action === 'FOLD') player.folded = true;
  view.lastAction = { playerId: event.playerId, action: event.action, amount: event.amount };
}

/** The bets go into the pot; the next phase is a street to deal, the draw, or the showdown. */
export function handViewRoundComplete(view: HandView, event: BettingRoundComplete): void {
  for (const player of view.players) player.bet = 0;
  view.actionOn = null;
  view.amountToCall = 0;
  const left = view.players.filter((player) => !player.folded).length;
  if (left <= 1 || event.phase === lastBettingRound(view.variant)) view.phase = 'SHOWDOWN';
  else if (view.variant === 'FIVE_CARD_DRAW') view.phase = 'DRAW';
}

export function handViewCommunityCards(view: HandView, event: CommunityCardsDealt): void {
  view.communityCards = [...event.allCommunityCards];
  view.phase = event.phase;
  view.actionOn = event.actionOn;
  view.amountToCall = 0;
}

export function handViewDrew(view: HandView, event: DrawCompleted): void {
  playerIn(view, event.playerId).drew = event.cardsDrawn.length;
  view.actionOn = event.actionOn;
}

/** At the showdown, each shown (or mucked) hand passes the turn to the next to show, if any. */
export function handViewRevealed(view: HandView, event: CardsRevealed): void {
  const player = playerIn(view, event.playerId);
  player.shown = [...event.cards];
  player.ranking = event.ranking;
  view.actionOn = event.actionOn ?? null;
}

export function handViewMucked(view: HandView, event: CardsMucked): void {
  playerIn(view, event.playerId).mucked = true;
  view.actionOn = event.actionOn ?? null;
}

export function handViewAwarded(view: HandView, awards: Award[]): void {
  view.awards = awards;
}

export function handViewComplete(view: HandView, event: HandComplete): void {
  // Own keys only: a player id such as "constructor" must not read Object's members.
  for (const player of view.players) if (Object.hasOwn(event.finalStacks, player.playerId)) player.stack = event.finalStacks[player.playerId];
  view.pot = 0;
  view.phase = 'COMPLETE';
  view.actionOn = null;
}

function playerIn(view: HandView, playerId: string): HandViewPlayer {
  return view.players.find((player) => player.playerId === playerId)!;
}
