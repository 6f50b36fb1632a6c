import { Logger } from '@nestjs/common';
import {
  Apply,
  type CommandRejection,
  emit,
  ErrorCode,
  OnEvent,
  OnRejected,
  OnTimeout,
  ProcessManager,
  type ProcessReaction,
  type StoredEvent,
} from '@nest-es/core';
import type { Variant } from '../cards/index.js';
import { ActionTaken, BettingRoundComplete, BlindPosted, CommunityCardsDealt, DrawCompleted, HandComplete } from '../hand/index.js';
import { DEFAULT_BOT_DELAY_MS, HandStarted } from '../table/index.js';
import { BotPlayer } from './bot-player.js';
import { BotTurnsEnded, BotTurnsStarted } from './bot-turns.events.js';

export interface BotTurnsState {
  handId: string | null;
  variant: Variant;
  botDelayMs: number;
  ended: boolean;
}

const BOT = 'bot';

/** Refusals of a move decided on a hand that has moved on (a person, the route or the action timer was first). */
const STALE = new Set<string>([ErrorCode.SEQUENCE_MISMATCH, ErrorCode.FAILED_PRECONDITION, ErrorCode.ALREADY_EXISTS]);

/**
 * Plays the bots of a hand from the server, at the table's pace: whenever the turn passes (or the
 * draw opens), a timer of `botDelayMs` starts; when it fires, the bots to move then (the one on
 * turn, or in the draw every bot still to draw) make their moves. So a hand of bots finishes with
 * no page open. Keyed like the hand flow, by the hand's correlation id; the timer lives in the
 * store and survives a restart. A person's turn fires the timer too and finds no bot to move.
 */
@ProcessManager('bot-turns', { startsOn: [HandStarted] })
export class BotTurnsProcess {
  private readonly logger = new Logger('BotTurns');

  constructor(private readonly bots: BotPlayer) {}

  initialState(): BotTurnsState {
    return { handId: null, variant: 'TEXAS_HOLDEM', botDelayMs: DEFAULT_BOT_DELAY_MS, ended: false };
  }

  @OnEvent(HandStarted)
  onHandStarted(event: HandStarted, state: BotTurnsState): ProcessReaction {
    if (state.handId !== null) return {};
    return { events: [new BotTurnsStarted(event.handId, event.variant, event.botDelayMs ?? DEFAULT_BOT_DELAY_MS)] };
  }

  @OnEvent(BlindPosted, ActionTaken, CommunityCardsDealt)
  onTurn(event: BlindPosted | ActionTaken | CommunityCardsDealt, state: BotTurnsState, _context: unknown, envelope: StoredEvent): ProcessReaction {
    if (!following(state, envelope)) return {};
    return event.actionOn === null ? { cancel: [BOT] } : next(state);
  }

  /** Until the last draw, a draw hands the turn to nobody: the bots still to draw keep their timer. */
  @OnEvent(DrawCompleted)
  onDrawCompleted(event: DrawCompleted, state: BotTurnsState, _context: unknown, envelope: StoredEvent): ProcessReaction {
    if (!following(state, envelope) || event.actionOn === null) return {};
    return next(state);
  }

  /** In Five Card Draw a closed round may open the draw (the timer then finds nobody to move at a showdown). */
  @OnEvent(BettingRoundComplete)
  onRoundComplete(_event: BettingRoundComplete, state: BotTurnsState, _context: unknown, envelope: StoredEvent): ProcessReaction {
    if (!following(state, envelope)) return {};
    return state.variant === 'FIVE_CARD_DRAW' ? next(state) : { cancel: [BOT] };
  }

  @OnEvent(HandComplete)
  onHandComplete(_event: HandComplete, state: BotTurnsState, _context: unknown, envelope: StoredEvent): ProcessReaction {
    if (!following(state, envelope)) return {};
    return { events: [new BotTurnsEnded()], cancel: [BOT] };
  }

  @OnTimeout(BOT)
  async onBotTimer(_payload: unknown, state: BotTurnsState): Promise<ProcessReaction> {
    if (state.handId === null || state.ended) return {};
    const { moves, handSequence } = await this.bots.plan(state.handId);
    // A bet is decided on the hand as it is now: if it moves on first, the hand refuses the stale bet.
    return {
      emit: moves.map((move) => emit(this.bots.command(state.handId!, move), move.command === 'PlayerAction' ? { expectedSequence: handSequence } : {})),
    };
  }

  @OnRejected()
  onRejected(rejection: CommandRejection): ProcessReaction {
    if (!STALE.has(rejection.code)) this.logger.warn(`${rejection.commandType} was refused: ${rejection.code} ${rejection.message}`);
    return {};
  }

  @Apply(BotTurnsStarted)
  onStarted(state: BotTurnsState, event: BotTurnsStarted): void {
    Object.assign(state, { handId: event.handId, variant: event.variant, botDelayMs: event.botDelayMs });
  }

  @Apply(BotTurnsEnded)
  onEnded(state: BotTurnsState): void {
    state.ended = true;
  }
}

function following(state: BotTurnsState, envelope: StoredEvent): boolean {
  return state.handId === envelope.aggregateId && !state.ended;
}

/** The turn passed: the previous bot timer (if any) is void, the next one starts. */
function next(state: BotTurnsState): ProcessReaction {
  return { cancel: [BOT], schedule: [{ name: BOT, afterMs: state.botDelayMs }] };
}
