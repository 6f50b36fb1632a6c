import { Logger } from '@nestjs/common';
import {
  Apply,
  type CommandRejection,
  emit,
  OnEvent,
  OnRejected,
  OnTimeout,
  type ProcessContext,
  ProcessManager,
  type ProcessReaction,
} from '@nest-es/core';
import { blindPositions, clockwiseAfter } from '../cards/index.js';
import {
  ActionTaken,
  AwardPot,
  BettingRoundComplete,
  BlindPosted,
  CardsDealt,
  CardsMucked,
  CardsRevealed,
  CommunityCardsDealt,
  DealCommunityCards,
  DrawCompleted,
  lastBettingRound,
  PlayerAction,
  PostBlind,
  PotAwarded,
  RequestDraw,
  RevealCards,
  STREETS,
} from '../hand/index.js';
import { HandStarted } from '../table/index.js';
import { BetSeen, BoardSeen, HandFlowCompleted, HandFlowStarted, HandShown, ShowdownStarted, TurnStarted } from './hand-flow.events.js';
import { contenders, type FlowPlayerState, type HandFlowState, initialHandFlowState } from './hand-flow.state.js';

/** What the action timer remembers: whose turn (to bet, or to show at the showdown), what they faced, and where the hand was. */
export interface ActionTimeout {
  playerId: string;
  amountToCall: number;
  handSequence: number;
}

/** What the draw timer remembers: whose turn to draw, and where the hand was. */
export interface DrawTimeout {
  playerId: string;
  handSequence: number;
}

type Ctx = ProcessContext<HandFlowState>;

const ACTION = 'action';
const DRAW = 'draw';

/**
 * Drives one hand from the deal to the pot, keyed by the hand id: the hand's own events by their
 * aggregate id, the table's HandStarted by its `handId`. So it follows every move of the hand,
 * whatever correlation id the move was sent with. It posts the blinds, follows whose turn it is and
 * keeps the clock. The hand itself deals each street as a round closes, shows at a contested
 * showdown the first hand and each next one that can still win (a losing hand's owner shows or
 * mucks in turn), and awards the pot in the events that leave one player in or show the last hand;
 * for rounds and showdowns stored before it did, the flow sends DealCommunityCards and AwardPot. A
 * player who does not act within the table's action timeout is checked (nothing to call) or folded;
 * in Five Card Draw, one who does not draw in their turn stands pat; at the showdown, their hand (a
 * losing one: a hand that can win is shown in its turn at once) is mucked. Timers live in the store:
 * they survive a restart and are cancelled as soon as the player acts.
 */
@ProcessManager('hand-flow', { startsOn: [HandStarted], key: (_event, envelope) => envelope.aggregateId })
export class HandFlowProcess {
  private readonly logger = new Logger('HandFlow');

  initialState(): HandFlowState {
    return initialHandFlowState();
  }

  /** A table event: its instance is the hand it starts. */
  @OnEvent(HandStarted, { key: 'handId' })
  onHandStarted(event: HandStarted, { state }: Ctx): ProcessReaction {
    // Hand ids are unique per table and hand number: a started flow has nothing to start again.
    if (state.handId !== null) return {};
    const players = event.players.map(({ playerId, position }) => ({ playerId, position }));
    return { events: [new HandFlowStarted(event.handId, event.tableId, event.variant, event.actionTimeoutMs, event.dealerPosition, players)] };
  }

  @OnEvent(CardsDealt)
  onCardsDealt(event: CardsDealt, { state }: Ctx): ProcessReaction {
    if (!following(state)) return {};
    const blinds = blindPositions(event.players, event.dealerPosition);
    const at = (position: number) => event.players.find((player) => player.position === position)!.playerId;
    const handId = state.handId!;
    return {
      emit: [
        emit(PostBlind, { handId, playerId: at(blinds.small), blindType: 'small', amount: event.smallBlind }),
        emit(PostBlind, { handId, playerId: at(blinds.big), blindType: 'big', amount: event.bigBlind }),
      ],
    };
  }

  @OnEvent(BlindPosted)
  onBlindPosted(event: BlindPosted, ctx: Ctx): ProcessReaction {
    if (!following(ctx.state)) return {};
    return turn(ctx, event.actionOn, event.amountToCall, [new BetSeen(event.playerId, false)]);
  }

  @OnEvent(ActionTaken)
  onActionTaken(event: ActionTaken, ctx: Ctx): ProcessReaction {
    if (!following(ctx.state)) return {};
    return turn(ctx, event.actionOn, event.amountToCall, [new BetSeen(event.playerId, event.action === 'FOLD')]);
  }

  @OnEvent(CommunityCardsDealt)
  onCommunityCards(event: CommunityCardsDealt, ctx: Ctx): ProcessReaction {
    if (!following(ctx.state)) return {};
    return turn(ctx, event.actionOn, 0, []);
  }

  /** Until the last draw, the turn to draw passes clockwise: the next drawer's clock starts. */
  @OnEvent(DrawCompleted)
  onDrawCompleted(event: DrawCompleted, ctx: Ctx): ProcessReaction {
    if (!following(ctx.state)) return {};
    if (event.actionOn === null) return drawClock(ctx, event.playerId);
    // The last draw opens the final betting round.
    return { ...turn(ctx, event.actionOn, 0, []), cancel: [DRAW, ACTION] };
  }

  /** The hand closed a round: the next street (dealt by the hand), the draw, or the showdown. */
  @OnEvent(BettingRoundComplete)
  onRoundComplete(event: BettingRoundComplete, ctx: Ctx): ProcessReaction {
    const { state } = ctx;
    if (!following(state)) return {};
    const handId = state.handId!;
    const still = contenders(state).map((player) => player.playerId);
    if (still.length <= 1 || event.phase === lastBettingRound(state.variant)) {
      const started = new ShowdownStarted(still);
      // Uncontested: the last player standing takes the pot and shows no card (the hand awards it
      // itself, in the events right after this one; before it did, the flow asked for it).
      if (still.length <= 1) return { events: [started], cancel: [ACTION, DRAW], ...awardUnlessAwarded(handId, event.awarded) };
      // The hand showed the first hand itself; the events after this one say whose and who is next.
      if (event.firstShown) return { events: [started], cancel: [ACTION, DRAW] };
      // Older rounds: the hand says who shows first, or (stored before the showdown went in turns) everyone shows.
      const first = event.firstToShow ? [event.firstToShow] : still;
      return { events: [started], cancel: [ACTION, DRAW], emit: first.map((playerId) => emit(RevealCards, { handId, playerId, muck: false })) };
    }
    if (state.variant === 'FIVE_CARD_DRAW') return { ...drawClock(ctx, null), cancel: [ACTION] };
    // The hand dealt the next street itself, in the event right after this one; before it did, the flow asked for it.
    if (event.streetDealt) return { cancel: [ACTION] };
    return { cancel: [ACTION], emit: [emit(DealCommunityCards, { handId, count: STREETS[event.phase]!.count })] };
  }

  @OnEvent(CardsRevealed)
  onCardsRevealed(event: CardsRevealed, ctx: Ctx): ProcessReaction {
    return shown(ctx, new HandShown(event.playerId, event.cards), event.actionOn ?? null, event.awarded);
  }

  @OnEvent(CardsMucked)
  onCardsMucked(event: CardsMucked, ctx: Ctx): ProcessReaction {
    return shown(ctx, new HandShown(event.playerId, null), event.actionOn ?? null, event.awarded);
  }

  @OnEvent(PotAwarded)
  onPotAwarded(event: PotAwarded, { state }: Ctx): ProcessReaction {
    if (!following(state)) return {};
    return { events: [new HandFlowCompleted(event.awards)], cancel: [ACTION, DRAW] };
  }

  @OnTimeout(ACTION)
  onActionTimeout(timeout: ActionTimeout, { state }: Ctx): ProcessReaction {
    // The hand is STRICT: if anything happened since the turn began (the player acted just in
    // time), the expected sequence no longer matches and the hand refuses the stale move.
    const when = { expectedSequence: timeout.handSequence };
    // At the showdown the absent player's hand is one that cannot win (one that can is shown in its turn at once): mucked.
    if (state.status === 'showdown') return { emit: [emit(RevealCards, { handId: state.handId!, playerId: timeout.playerId, muck: true }, when)] };
    if (state.status !== 'playing') return {};
    const action = timeout.amountToCall > 0 ? 'FOLD' : 'CHECK';
    return { emit: [emit(PlayerAction, { handId: state.handId!, playerId: timeout.playerId, action }, when)] };
  }

  /** The player whose turn it is to draw stands pat, unless the hand has moved since their turn began. */
  @OnTimeout(DRAW)
  onDrawTimeout(timeout: DrawTimeout | null | undefined, { state }: Ctx): ProcessReaction {
    if (state.status !== 'playing') return {};
    const handId = state.handId!;
    if (timeout?.playerId) return { emit: [emit(RequestDraw, { handId, playerId: timeout.playerId, discardIndices: [] }, { expectedSequence: timeout.handSequence })] };
    // A timer set before the draw went in turns: everyone still to draw stands pat, in turn (those who drew refuse).
    return { emit: drawOrder(state).map(({ playerId }) => emit(RequestDraw, { handId, playerId, discardIndices: [] })) };
  }

  /** Timeout moves that came too late are refused by design; anything else is worth a look. */
  @OnRejected()
  onRejected(rejection: CommandRejection): ProcessReaction {
    if (rejection.cause) this.logger.warn(`${rejection.commandType} was refused: ${rejection.code} ${rejection.message}`);
    return {};
  }

  @Apply(HandFlowStarted)
  onStarted(state: HandFlowState, event: HandFlowStarted): void {
    Object.assign(state, {
      handId: event.handId,
      tableId: event.tableId,
      variant: event.variant,
      actionTimeoutMs: event.actionTimeoutMs,
      dealerPosition: event.dealerPosition,
      players: event.players.map(({ playerId, position }) => ({ playerId, position, folded: false })),
      status: 'playing',
    });
  }

  @Apply(BetSeen)
  onBetSeen(state: HandFlowState, event: BetSeen): void {
    state.players.find((p) => p.playerId === event.playerId)!.folded ||= event.folded;
  }

  @Apply(TurnStarted)
  onTurnStarted(state: HandFlowState, event: TurnStarted): void {
    state.actionOn = event.playerId;
  }

  /** Recorded by flows until the hand awarded its own pot, when the flow needed the board for it. */
  @Apply(BoardSeen)
  onBoardSeen(): void {}

  @Apply(ShowdownStarted)
  onShowdownStarted(state: HandFlowState): void {
    state.status = 'showdown';
    state.actionOn = null;
  }

  @Apply(HandShown)
  onHandShown(state: HandFlowState, event: HandShown): void {
    state.players.find((p) => p.playerId === event.playerId)!.shown = event.cards;
  }

  @Apply(HandFlowCompleted)
  onCompleted(state: HandFlowState): void {
    state.status = 'complete';
    state.actionOn = null;
  }
}

/** The flow's hand (its key) from HandStarted on, until it completes. */
function following(state: HandFlowState): boolean {
  return state.handId !== null && state.status !== 'complete';
}

/**
 * Records `seen`, then starts the next player's clock (or stops it when nobody is to act). The
 * timeout remembers the hand's sequence at the event that passed the turn: it acts only if the
 * hand is still there.
 */
function turn(ctx: Ctx, actionOn: string | null, amountToCall: number, seen: object[]): ProcessReaction {
  if (actionOn === null) return { events: seen, cancel: [ACTION] };
  const handSequence = ctx.envelope!.sequence;
  const timeout: ActionTimeout = { playerId: actionOn, amountToCall, handSequence };
  return {
    events: [...seen, new TurnStarted(actionOn, amountToCall, handSequence)],
    cancel: [ACTION],
    schedule: [{ name: ACTION, afterMs: ctx.state.actionTimeoutMs, payload: timeout }],
  };
}

/**
 * Records a shown (or mucked) hand and starts the clock of the next to show; once the last contender
 * has shown, the pot is awarded.
 */
function shown(ctx: Ctx, event: HandShown, actionOn: string | null, awarded = false): ProcessReaction {
  if (!following(ctx.state) || ctx.state.status !== 'showdown') return {};
  const after = ctx.stateAfter(event);
  if (contenders(after).some((player) => player.shown === undefined)) return turn(ctx, actionOn, 0, [event]);
  return { events: [event], cancel: [ACTION], ...awardUnlessAwarded(ctx.state.handId!, awarded) };
}

/** The hand awards its pot in the events that end its showdown; one that ended before it did is asked to. */
function awardUnlessAwarded(handId: string, awarded = false): ProcessReaction {
  return awarded ? {} : { emit: [emit(AwardPot, { handId })] };
}

/** Five Card Draw: everyone still in, in the order they draw (from the first left of the dealer). */
function drawOrder(state: HandFlowState): FlowPlayerState[] {
  return clockwiseAfter(contenders(state), state.dealerPosition);
}

/**
 * Starts the clock of the next to draw: the first in the draw order, or the one after `drew`. Its
 * timeout remembers the hand's sequence at the event that passed the turn, so it stands pat for the
 * player only if the hand is still there.
 */
function drawClock(ctx: Ctx, drew: string | null): ProcessReaction {
  const order = drawOrder(ctx.state);
  const next = drew === null ? order[0] : order[order.findIndex((player) => player.playerId === drew) + 1];
  if (!next) return { cancel: [DRAW] };
  const timeout: DrawTimeout = { playerId: next.playerId, handSequence: ctx.envelope!.sequence };
  return { cancel: [DRAW], schedule: [{ name: DRAW, afterMs: ctx.state.actionTimeoutMs, payload: timeout }] };
}
