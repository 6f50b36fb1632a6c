import { Aggregate, Apply, type CommandContext, CommandHandler, FailedPreconditionError, InvalidArgumentError, MergeStrategy } from '@nest-es/core';
import { awardPots, bestHandFor, blindPositions } from '../cards/index.js';
import { applyAction, applyBlind, applyCommunityCards, applyDraw, chipsFor, findPlayer, NOBODY_YET, stillIn, turnAfter } from './betting.js';
import { dealCards } from './dealing.js';
import { AwardPot, type BettingAction, DealCards, DealCommunityCards, PlayerAction, PostBlind, RequestDraw, RevealCards } from './hand.commands.js';
import {
  ActionTaken,
  BettingRoundComplete,
  BlindPosted,
  CardsDealt,
  CardsMucked,
  CardsRevealed,
  CommunityCardsDealt,
  DrawCompleted,
  HandComplete,
  PotAwarded,
} from './hand.events.js';
import { dealtPlayer, type HandPlayerState, type HandState, initialHandState, type Phase } from './hand.state.js';
import { lastBettingRound, type Street, STREETS } from './streets.js';
import { handView } from './hand.view.js';
import { contested, firstToShow, losing, nextToDraw, nextToShowAfter, toShow } from './turns.js';

/** What ends a hand: the pot awarded, and the hand complete. */
const ENDING_EVENTS = [PotAwarded, HandComplete];
type EndingEvent = PotAwarded | HandComplete;

/**
 * What closing a betting round records: the closed round; the next street, in Hold'em and Omaha; at
 * a contested showdown the hands shown at once; and when that ends the hand (one player left, or
 * every hand shown), the pot awarded.
 */
const CLOSING_EVENTS = [BettingRoundComplete, CommunityCardsDealt, CardsRevealed, ...ENDING_EVENTS];
type ClosingEvent = BettingRoundComplete | CommunityCardsDealt | CardsRevealed | EndingEvent;

/**
 * One hand of poker, driven by commands from the hand-flow process manager. STRICT: action
 * order matters, so a command decided on a stale sequence is refused rather than merged.
 *
 * How the phase moves, with no command of its own for SHOWDOWN:
 * - CardsDealt opens PREFLOP; betting starts once both blinds are posted.
 * - When a round closes (BettingRoundComplete{phase}) the hand goes to SHOWDOWN if one player is
 *   left or that was the last round (RIVER; in Five Card Draw the round after the draw). Otherwise
 *   Hold'em and Omaha deal the next street in the same append (CommunityCardsDealt; a round stored
 *   before they did waits for DealCommunityCards), and Five Card Draw goes to DRAW: everyone still
 *   in draws once, in turn from the first player left of the dealer, and the last draw opens the
 *   final betting round, still in phase DRAW.
 * - A street (or the draw) after which fewer than two players can bet closes its round at once,
 *   so an all-in hand runs the board out street by street and reaches SHOWDOWN the same way.
 * - At SHOWDOWN one player left wins uncontested: no card is shown (RevealCards is refused). With
 *   two or more, the hands are shown in turns: the last aggressor of the last round shows first (the
 *   first player left of the dealer if it was checked around), then each next player clockwise
 *   shows, or mucks a losing hand (RevealCards). A hand that can still win has no choice to make,
 *   so it is shown in its turn at once: the first hand, and those after it, in the events that close
 *   the round.
 * - The events that leave one player in, or show the last hand, award the pot by the cards shown and
 *   end the hand (PotAwarded, HandComplete, phase COMPLETE), in the same append: no command waits
 *   in between. AwardPot does the same for a showdown that ended before the hand awarded its pot.
 */
@Aggregate('hand', { mergeStrategy: MergeStrategy.STRICT, view: handView })
export class HandAggregate {
  initialState(): HandState {
    return initialHandState();
  }

  @CommandHandler(DealCards, { emits: [CardsDealt] })
  deal(command: DealCards, state: HandState): CardsDealt {
    if (state.status !== 'not_dealt') throw new FailedPreconditionError(`the hand is already dealt (hand ${state.handNumber} of table ${state.tableId})`);
    return dealCards(command);
  }

  @CommandHandler(PostBlind, { emits: [BlindPosted, ...CLOSING_EVENTS] })
  postBlind(command: PostBlind, state: HandState, context: CommandContext): (BlindPosted | ClosingEvent)[] {
    requireDealt(state);
    if (state.status !== 'posting_blinds') throw new FailedPreconditionError(`blinds are posted right after dealing; the hand is ${where(state)}`);
    const player = requirePlayer(state, command.playerId);
    const blinds = blindPositions(state.players, state.dealerPosition);
    const small = command.blindType === 'small';
    if (small && state.smallBlindPosted) throw new FailedPreconditionError('the small blind is already posted');
    if (!small && !state.smallBlindPosted) throw new FailedPreconditionError('the small blind must be posted before the big blind');
    const seat = small ? blinds.small : blinds.big;
    if (player.position !== seat) {
      throw new FailedPreconditionError(`${player.playerId} at seat ${player.position} is not the ${command.blindType} blind: seat ${seat} is`);
    }
    const amount = Math.min(command.amount, player.stack);
    const blind = { playerId: player.playerId, blindType: command.blindType, amount, playerStack: player.stack - amount, potTotal: state.pot + amount };
    const next = structuredClone(state);
    applyBlind(next, blind);
    const turn = small ? NOBODY_YET : turnAfter(next, blinds.big);
    const posted = new BlindPosted(blind.playerId, blind.blindType, amount, blind.playerStack, blind.potTotal, turn.actionOn, turn.amountToCall);
    return turn.closed ? [posted, ...roundComplete(next, state.phase, context.aggregateId)] : [posted];
  }

  @CommandHandler(PlayerAction, { emits: [ActionTaken, ...CLOSING_EVENTS], http: true })
  act(command: PlayerAction, state: HandState, context: CommandContext): (ActionTaken | ClosingEvent)[] {
    requireDealt(state);
    if (state.status !== 'betting') throw new FailedPreconditionError(`no betting round is open; the hand is ${where(state)}`);
    const player = requireActive(state, command.playerId);
    if (state.actionOn !== player.playerId) throw new FailedPreconditionError(`it is ${state.actionOn}'s turn, not ${player.playerId}'s`);
    const chips = chipsFor(command, player, state);
    const action: BettingAction = chips > 0 && chips === player.stack ? 'ALL_IN' : command.action;
    const move = { playerId: player.playerId, action, amount: chips, playerStack: player.stack - chips, potTotal: state.pot + chips };
    const next = structuredClone(state);
    applyAction(next, move);
    const turn = turnAfter(next, player.position);
    const taken = new ActionTaken(move.playerId, action, chips, move.playerStack, move.potTotal, turn.amountToCall, turn.actionOn);
    return turn.closed ? [taken, ...roundComplete(next, state.phase, context.aggregateId)] : [taken];
  }

  /** The street of a round closed before the hand dealt its streets itself. */
  @CommandHandler(DealCommunityCards, { emits: CLOSING_EVENTS })
  dealCommunity(command: DealCommunityCards, state: HandState, context: CommandContext): ClosingEvent[] {
    requireDealt(state);
    if (state.variant === 'FIVE_CARD_DRAW') throw new InvalidArgumentError('community cards are not dealt in FIVE_CARD_DRAW');
    const street = STREETS[state.phase];
    if (!street || state.status !== 'round_closed') {
      throw new FailedPreconditionError(`community cards are dealt once a betting round before the river has closed; the hand is ${where(state)}`);
    }
    if (command.count !== street.count) throw new InvalidArgumentError(`the ${street.phase} is ${street.count} card(s), got ${command.count}`);
    return dealStreet(state, street, context.aggregateId);
  }

  @CommandHandler(RequestDraw, { emits: [DrawCompleted, ...CLOSING_EVENTS], http: true })
  draw(command: RequestDraw, state: HandState, context: CommandContext): (DrawCompleted | ClosingEvent)[] {
    requireDealt(state);
    if (state.variant !== 'FIVE_CARD_DRAW') throw new InvalidArgumentError(`drawing is only in FIVE_CARD_DRAW; this hand is ${state.variant}`);
    if (state.status !== 'drawing') throw new FailedPreconditionError(`cards are drawn in the DRAW phase before its betting; the hand is ${where(state)}`);
    const player = requireStillIn(state, command.playerId);
    if (player.hasDrawn) throw new FailedPreconditionError(`${player.playerId} has already drawn`);
    const inTurn = nextToDraw(state);
    if (inTurn !== player.playerId) throw new FailedPreconditionError(`it is ${inTurn}'s turn to draw, not ${player.playerId}'s`);
    const count = command.discardIndices.length;
    if (count > state.deck.length) throw new FailedPreconditionError(`only ${state.deck.length} cards are left in the deck, ${count} requested`);
    const discarded = command.discardIndices.map((index) => player.holeCards[index]);
    const drawn = state.deck.slice(0, count);
    const next = structuredClone(state);
    applyDraw(next, player.playerId, discarded, drawn);
    const lastDraw = next.status === 'betting';
    const turn = lastDraw ? turnAfter(next, state.dealerPosition) : NOBODY_YET;
    const completed = new DrawCompleted(player.playerId, discarded, drawn, turn.actionOn);
    return turn.closed ? [completed, ...roundComplete(next, 'DRAW', context.aggregateId)] : [completed];
  }

  @CommandHandler(RevealCards, { emits: [CardsRevealed, CardsMucked, ...ENDING_EVENTS], http: true })
  reveal(command: RevealCards, state: HandState, context: CommandContext): (CardsRevealed | CardsMucked | EndingEvent)[] {
    requireShowdown(state, 'cards are revealed');
    const player = requireStillIn(state, command.playerId);
    if (!contested(state)) throw new FailedPreconditionError(`nobody contests the pot: ${player.playerId} wins it without showing`);
    if (player.shown) throw new FailedPreconditionError(`${player.playerId} has already ${player.shown} their cards`);
    // Null only for a showdown begun before it went in turns: then anyone still to show may.
    const turn = toShow(state);
    if (turn !== null && turn !== player.playerId) throw new FailedPreconditionError(`it is ${turn}'s turn to show, not ${player.playerId}'s`);
    if (command.muck && !losing(state, player)) throw new FailedPreconditionError(`only a losing hand may be mucked: ${player.playerId}'s can still win`);
    return showInTurn(state, player.playerId, command.muck === true, context.aggregateId);
  }

  @CommandHandler(AwardPot, { emits: ENDING_EVENTS })
  award(_command: AwardPot, state: HandState, context: CommandContext): EndingEvent[] {
    requireShowdown(state, 'the pot is awarded');
    const waiting = contested(state) ? stillIn(state).find((player) => player.shown === null) : undefined;
    if (waiting) throw new FailedPreconditionError(`the pot is awarded once every hand still in is shown or mucked; ${waiting.playerId}'s is not`);
    return potAwarded(state, context.aggregateId);
  }

  @Apply(CardsDealt)
  onDealt(state: HandState, event: CardsDealt): void {
    Object.assign(state, {
      tableId: event.tableId,
      handNumber: event.handNumber,
      variant: event.variant,
      dealerPosition: event.dealerPosition,
      smallBlind: event.smallBlind,
      bigBlind: event.bigBlind,
      seed: event.seed,
      deck: [...event.remainingDeck],
      phase: 'PREFLOP',
      status: 'posting_blinds',
      players: event.players.map(({ playerId, position, stack, holeCards }) => dealtPlayer(playerId, position, stack, holeCards)),
    });
  }

  @Apply(BlindPosted)
  onBlindPosted(state: HandState, event: BlindPosted): void {
    applyBlind(state, event);
    state.actionOn = event.actionOn;
  }

  @Apply(ActionTaken)
  onActionTaken(state: HandState, event: ActionTaken): void {
    applyAction(state, event);
    state.actionOn = event.actionOn;
  }

  @Apply(BettingRoundComplete)
  onRoundComplete(state: HandState, event: BettingRoundComplete): void {
    state.actionOn = null;
    if (stillIn(state).length <= 1 || event.phase === lastBettingRound(state.variant)) {
      state.phase = 'SHOWDOWN';
      state.status = 'showdown';
    } else if (state.variant === 'FIVE_CARD_DRAW') {
      state.phase = 'DRAW';
      state.status = 'drawing';
    } else {
      state.status = 'round_closed';
    }
  }

  @Apply(CommunityCardsDealt)
  onCommunityCards(state: HandState, event: CommunityCardsDealt): void {
    applyCommunityCards(state, event.cards, event.phase);
    state.actionOn = event.actionOn;
  }

  @Apply(DrawCompleted)
  onDrawCompleted(state: HandState, event: DrawCompleted): void {
    applyDraw(state, event.playerId, event.cardsDiscarded, event.cardsDrawn);
    state.actionOn = event.actionOn;
  }

  @Apply(CardsRevealed)
  onRevealed(state: HandState, event: CardsRevealed): void {
    findPlayer(state, event.playerId)!.shown = 'revealed';
    state.actionOn = event.actionOn ?? null;
  }

  @Apply(CardsMucked)
  onMucked(state: HandState, event: CardsMucked): void {
    findPlayer(state, event.playerId)!.shown = 'mucked';
    state.actionOn = event.actionOn ?? null;
  }

  @Apply(PotAwarded)
  onPotAwarded(state: HandState, event: PotAwarded): void {
    for (const { playerId, amount } of event.awards) {
      findPlayer(state, playerId)!.stack += amount;
      state.pot -= amount;
    }
  }

  @Apply(HandComplete)
  onHandComplete(state: HandState): void {
    state.phase = 'COMPLETE';
    state.status = 'complete';
    state.actionOn = null;
  }
}

/**
 * A closed round. When it leads to a contested showdown, the first to show has no choice to make
 * (nothing is shown yet, so their hand can still win): it is shown at once, and so is each next hand
 * that can still win, until a losing hand's owner is to choose. One player left takes the pot at once;
 * before the last round, Hold'em and Omaha deal the next street at once.
 */
function roundComplete(after: HandState, phase: Phase, handId: string): ClosingEvent[] {
  const showdown = stillIn(after).length <= 1 || phase === lastBettingRound(after.variant);
  if (showdown && !contested(after)) return [new BettingRoundComplete(phase, null, false, true), ...potAwarded(after, handId)];
  const street = after.variant === 'FIVE_CARD_DRAW' ? undefined : STREETS[phase];
  if (!showdown && street) return [new BettingRoundComplete(phase, null, false, false, true), ...dealStreet(after, street, handId)];
  const first = showdown ? firstToShow(after) : null;
  if (first === null) return [new BettingRoundComplete(phase, null)];
  return [new BettingRoundComplete(phase, first, true), ...(showInTurn(after, first, false, handId) as ClosingEvent[])];
}

/** Deals a street from the top of the deck; when fewer than two players can bet on it, its round closes at once. */
function dealStreet(state: HandState, street: Street, handId: string): ClosingEvent[] {
  const cards = state.deck.slice(0, street.count);
  const next = structuredClone(state);
  applyCommunityCards(next, cards, street.phase);
  const turn = turnAfter(next, state.dealerPosition);
  const dealt = new CommunityCardsDealt(cards, street.phase, next.communityCards, turn.actionOn);
  return turn.closed ? [dealt, ...roundComplete(next, street.phase, handId)] : [dealt];
}

/**
 * The player shows (or mucks), and the turn passes clockwise; each next hand that can still win
 * against those shown is shown at once, in turn, until a losing hand's owner is to choose. Each event
 * says who is to show after it; once all have shown, the last one says so and the pot is awarded.
 */
function showInTurn(state: HandState, playerId: string, muck: boolean, handId: string): (CardsRevealed | CardsMucked | EndingEvent)[] {
  const next = structuredClone(state);
  const shown: (CardsRevealed | CardsMucked)[] = [];
  let player = findPlayer(next, playerId)!;
  let mucks = muck;
  for (;;) {
    player.shown = mucks ? 'mucked' : 'revealed';
    const after = nextToShowAfter(next, player.position);
    const actionOn = after?.playerId ?? null;
    const last = after === undefined;
    const ranking = bestHandFor(next.variant, player.holeCards, next.communityCards).ranking;
    shown.push(mucks ? new CardsMucked(player.playerId, actionOn, last) : new CardsRevealed(player.playerId, [...player.holeCards], ranking, actionOn, last));
    if (last) return [...shown, ...potAwarded(next, handId)];
    if (losing(next, after)) return shown;
    player = after;
    mucks = false;
  }
}

/** Every pot to its best shown hand (all of it to the last player left), and the hand complete. */
function potAwarded(state: HandState, handId: string): EndingEvent[] {
  const shownHand = (player: HandPlayerState) => (player.shown === 'revealed' ? bestHandFor(state.variant, player.holeCards, state.communityCards) : undefined);
  const awards = awardPots(
    state.players.map((player) => ({ ...player, hand: shownHand(player) })),
    state.dealerPosition,
  ).filter((award) => award.amount > 0);
  const won = (player: HandPlayerState) => awards.find((award) => award.playerId === player.playerId)?.amount ?? 0;
  return [
    new PotAwarded(awards),
    new HandComplete(
      state.tableId,
      handId,
      Object.fromEntries(state.players.map((player) => [player.playerId, player.stack + won(player)])),
      Object.fromEntries(state.players.map((player) => [player.playerId, won(player) - player.totalInvested])),
    ),
  ];
}

function where(state: HandState): string {
  return `in phase ${state.phase} (${state.status.replace('_', ' ')})`;
}

function requireDealt(state: HandState): void {
  if (state.status === 'not_dealt') throw new FailedPreconditionError('the hand has not been dealt');
}

function requireShowdown(state: HandState, what: string): void {
  requireDealt(state);
  if (state.phase !== 'SHOWDOWN') throw new FailedPreconditionError(`${what} at the showdown; the hand is ${where(state)}`);
}

function requirePlayer(state: HandState, playerId: string): HandPlayerState {
  const player = findPlayer(state, playerId);
  if (!player) throw new FailedPreconditionError(`${playerId} is not in this hand`);
  return player;
}

function requireStillIn(state: HandState, playerId: string): HandPlayerState {
  const player = requirePlayer(state, playerId);
  if (player.folded) throw new FailedPreconditionError(`${playerId} has folded`);
  return player;
}

function requireActive(state: HandState, playerId: string): HandPlayerState {
  const player = requireStillIn(state, playerId);
  if (player.allIn) throw new FailedPreconditionError(`${playerId} is all-in`);
  return player;
}
