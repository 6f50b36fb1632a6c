import { Logger } from '@nestjs/common';
import {
  Apply,
  type CommandRejection,
  emit,
  OnEvent,
  OnRejected,
  OnTimeout,
  ProcessManager,
  type ProcessReaction,
  type StoredEvent,
} from '@nest-es/core';
import { blindPositions } from '../cards/index.js';
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
import { contenders, type HandFlowState, initialHandFlowState } from './hand-flow.state.js';
import { showdownAwards } from './showdown.js';

/** What the action timer remembers: whose turn, what they faced, and where the hand was. */
export interface ActionTimeout {
  playerId: string;
  amountToCall: number;
  handSequence: number;
}

const ACTION = 'action';
const DRAW = 'draw';

/**
 * Drives one hand from the deal to the pot, keyed by the hand's correlation id (StartHand's, which
 * the sagas and every player action must carry). It posts the blinds, follows whose turn it is,
 * deals the streets, asks everyone still in to show, evaluates and awards the pot. A player who
 * does not act within the table's action timeout is checked (nothing to call) or folded; in Five
 * Card Draw, players who have not drawn by then stand pat. Timers live in the store: they survive
 * a restart and are cancelled as soon as the player acts.
 */
@ProcessManager('hand-flow', { startsOn: [HandStarted] })
export class HandFlowProcess {
  private readonly logger = new Logger('HandFlow');

  initialState(): HandFlowState {
    return initialHandFlowState();
  }

  @OnEvent(HandStarted)
  onHandStarted(event: HandStarted, state: HandFlowState): ProcessReaction {
    // A second hand started under this correlation id is not ours: its table would stall, so
    // callers start each hand with a fresh correlation id (the default).
    if (state.handId !== null) return {};
    const players = event.players.map(({ playerId, position, stack }) => ({ playerId, position, stack }));
    return { events: [new HandFlowStarted(event.handId, event.tableId, event.variant, event.actionTimeoutMs, event.dealerPosition, players)] };
  }

  @OnEvent(CardsDealt)
  onCardsDealt(event: CardsDealt, state: HandFlowState, _context: unknown, envelope: StoredEvent): ProcessReaction {
    if (!following(state, envelope)) return {};
    const blinds = blindPositions(event.players, event.dealerPosition);
    const at = (position: number) => event.players.find((player) => player.position === position)!.playerId;
    return {
      emit: [postBlind(envelope.aggregateId, at(blinds.small), 'small', event.smallBlind), postBlind(envelope.aggregateId, at(blinds.big), 'big', event.bigBlind)],
    };
  }

  @OnEvent(BlindPosted)
  onBlindPosted(event: BlindPosted, state: HandFlowState, _context: unknown, envelope: StoredEvent): ProcessReaction {
    if (!following(state, envelope)) return {};
    return turn(state, envelope, event.actionOn, event.amountToCall, [new BetSeen(event.playerId, event.playerStack, false)]);
  }

  @OnEvent(ActionTaken)
  onActionTaken(event: ActionTaken, state: HandFlowState, _context: unknown, envelope: StoredEvent): ProcessReaction {
    if (!following(state, envelope)) return {};
    return turn(state, envelope, event.actionOn, event.amountToCall, [new BetSeen(event.playerId, event.playerStack, event.action === 'FOLD')]);
  }

  @OnEvent(CommunityCardsDealt)
  onCommunityCards(event: CommunityCardsDealt, state: HandFlowState, _context: unknown, envelope: StoredEvent): ProcessReaction {
    if (!following(state, envelope)) return {};
    return turn(state, envelope, event.actionOn, 0, [new BoardSeen(event.allCommunityCards)]);
  }

  @OnEvent(DrawCompleted)
  onDrawCompleted(event: DrawCompleted, state: HandFlowState, _context: unknown, envelope: StoredEvent): ProcessReaction {
    if (!following(state, envelope) || event.actionOn === null) return {};
    // The last draw opens the final betting round.
    return { ...turn(state, envelope, event.actionOn, 0, []), cancel: [DRAW, ACTION] };
  }

  /** The hand closed a round: deal the next street, open the draw, or go to the showdown. */
  @OnEvent(BettingRoundComplete)
  onRoundComplete(event: BettingRoundComplete, state: HandFlowState, _context: unknown, envelope: StoredEvent): ProcessReaction {
    if (!following(state, envelope)) return {};
    const handId = envelope.aggregateId;
    const still = contenders(state).map((player) => player.playerId);
    if (still.length <= 1 || event.phase === lastBettingRound(state.variant)) {
      return { events: [new ShowdownStarted(still)], cancel: [ACTION], emit: still.map((playerId) => reveal(handId, playerId)) };
    }
    if (state.variant === 'FIVE_CARD_DRAW') return { cancel: [ACTION], schedule: [{ name: DRAW, afterMs: state.actionTimeoutMs }] };
    return { cancel: [ACTION], emit: [Object.assign(new DealCommunityCards(), { handId, count: STREETS[event.phase]!.count })] };
  }

  @OnEvent(CardsRevealed)
  onCardsRevealed(event: CardsRevealed, state: HandFlowState, _context: unknown, envelope: StoredEvent): ProcessReaction {
    return this.shown(state, envelope, new HandShown(event.playerId, event.cards));
  }

  @OnEvent(CardsMucked)
  onCardsMucked(event: CardsMucked, state: HandFlowState, _context: unknown, envelope: StoredEvent): ProcessReaction {
    return this.shown(state, envelope, new HandShown(event.playerId, null));
  }

  @OnEvent(PotAwarded)
  onPotAwarded(event: PotAwarded, state: HandFlowState, _context: unknown, envelope: StoredEvent): ProcessReaction {
    if (!following(state, envelope)) return {};
    return { events: [new HandFlowCompleted(event.awards)], cancel: [ACTION, DRAW] };
  }

  @OnTimeout(ACTION)
  onActionTimeout(timeout: ActionTimeout, state: HandFlowState): ProcessReaction {
    if (state.status !== 'playing') return {};
    const action = Object.assign(new PlayerAction(), { handId: state.handId, playerId: timeout.playerId, action: timeout.amountToCall > 0 ? 'FOLD' : 'CHECK' });
    // The hand is STRICT: if anything happened since the turn began (the player acted just in
    // time), the expected sequence no longer matches and the hand refuses the stale move.
    return { emit: [emit(action, { expectedSequence: timeout.handSequence })] };
  }

  @OnTimeout(DRAW)
  onDrawTimeout(_payload: unknown, state: HandFlowState): ProcessReaction {
    if (state.status !== 'playing') return {};
    // Those who already drew refuse a second draw; the others stand pat.
    return { emit: contenders(state).map(({ playerId }) => Object.assign(new RequestDraw(), { handId: state.handId, playerId, discardIndices: [] })) };
  }

  /** Timeout moves that came too late are refused by design; anything else is worth a look. */
  @OnRejected()
  onRejected(rejection: CommandRejection): ProcessReaction {
    if (rejection.cause) this.logger.warn(`${rejection.commandType} was refused: ${rejection.code} ${rejection.message}`);
    return {};
  }

  /** Records a shown (or mucked) hand; the last one to show lets the flow award the pot. */
  private shown(state: HandFlowState, envelope: StoredEvent, event: HandShown): ProcessReaction {
    if (!following(state, envelope) || state.status !== 'showdown') return {};
    const after = structuredClone(state);
    this.onHandShown(after, event);
    if (contenders(after).some((player) => player.shown === undefined)) return { events: [event] };
    return { events: [event], emit: [Object.assign(new AwardPot(), { handId: envelope.aggregateId, awards: showdownAwards(after) })] };
  }

  @Apply(HandFlowStarted)
  onStarted(state: HandFlowState, event: HandFlowStarted): void {
    Object.assign(state, {
      handId: event.handId,
      tableId: event.tableId,
      variant: event.variant,
      actionTimeoutMs: event.actionTimeoutMs,
      dealerPosition: event.dealerPosition,
      players: event.players.map(({ playerId, position, stack }) => ({ playerId, position, startingStack: stack, stack, folded: false })),
      status: 'playing',
    });
  }

  @Apply(BetSeen)
  onBetSeen(state: HandFlowState, event: BetSeen): void {
    const player = state.players.find((p) => p.playerId === event.playerId)!;
    player.stack = event.playerStack;
    player.folded ||= event.folded;
  }

  @Apply(TurnStarted)
  onTurnStarted(state: HandFlowState, event: TurnStarted): void {
    state.actionOn = event.playerId;
  }

  @Apply(BoardSeen)
  onBoardSeen(state: HandFlowState, event: BoardSeen): void {
    state.communityCards = [...event.communityCards];
  }

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

/** Events of the hand this flow started, while it is still running. */
function following(state: HandFlowState, envelope: StoredEvent): boolean {
  return state.handId === envelope.aggregateId && state.status !== 'complete';
}

/** Records `seen`, then starts the next player's clock (or stops it when nobody is to act). */
function turn(state: HandFlowState, envelope: StoredEvent, actionOn: string | null, amountToCall: number, seen: object[]): ProcessReaction {
  if (actionOn === null) return { events: seen, cancel: [ACTION] };
  const timeout: ActionTimeout = { playerId: actionOn, amountToCall, handSequence: envelope.sequence };
  return {
    events: [...seen, new TurnStarted(actionOn, amountToCall, envelope.sequence)],
    cancel: [ACTION],
    schedule: [{ name: ACTION, afterMs: state.actionTimeoutMs, payload: timeout }],
  };
}

function postBlind(handId: string, playerId: string, blindType: 'small' | 'big', amount: number): PostBlind {
  return Object.assign(new PostBlind(), { handId, playerId, blindType, amount });
}

function reveal(handId: string, playerId: string): RevealCards {
  return Object.assign(new RevealCards(), { handId, playerId, muck: false });
}
