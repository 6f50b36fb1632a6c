import { Logger } from '@nestjs/common';
import { Apply, type CommandRejection, ErrorCode, OnEvent, OnRejected, OnTimeout, type ProcessContext, ProcessManager, type ProcessReaction } from '@nest-es/core';
import type { Variant } from '../cards/index.js';
import { ActionTaken, BettingRoundComplete, BlindPosted, CardsMucked, CardsRevealed, CommunityCardsDealt, DrawCompleted, HandComplete, type HandState } from '../hand/index.js';
import type { PlayerState } from '../player/index.js';
import { DEFAULT_BOT_DELAY_MS, HandStarted } from '../table/index.js';
import { type BotMoveMade, botMoveEmission, planBotMoves, playersToMove } from './bot-plan.js';
import { BotTurnsEnded, BotTurnsStarted } from './bot-turns.events.js';

export interface BotTurnsState {
  handId: string | null;
  variant: Variant;
  botDelayMs: number;
  ended: boolean;
  /** The hand's bots; null when its BotTurnsStarted did not record them (each turn then asks the players). */
  bots: string[] | null;
}

/**
 * What the bot timer carries: the moves decided when the turn passed, and the hand's sequence they
 * were decided on. Firing it sends exactly these, whatever the hand looks like by then.
 */
export interface BotTimer {
  handId: string;
  handSequence: number;
  moves: BotMoveMade[];
}

type Ctx = ProcessContext<BotTurnsState>;

const BOT = 'bot';

/** Refusals of a move decided on a hand that has moved on (a person, the route or the action timer was first). */
const STALE = new Set<string>([ErrorCode.SEQUENCE_MISMATCH, ErrorCode.FAILED_PRECONDITION, ErrorCode.ALREADY_EXISTS]);

/**
 * Plays the bots of a hand from the server, at the table's pace, so a hand of bots finishes with
 * no page open. Whenever the turn passes (to bet, to draw, or to show or muck at the showdown),
 * a bot on turn decides at once, on the hand as of that event (`ctx.stateOf`: the same on every
 * redelivery), and a timer of `botDelayMs` carries its move; when it fires, it sends what it carries
 * and reads nothing. A bet or a show carries the hand sequence it was decided on, so a hand that
 * moved on first refuses it. A person's turn
 * starts no timer. The hand's bots are noted as it starts (its players stay for the whole hand): a
 * hand of people is not followed at all. Keyed like the hand flow, by the hand id; the timer lives
 * in the store and survives a restart.
 */
@ProcessManager('bot-turns', { startsOn: [HandStarted], key: (_event, envelope) => envelope.aggregateId })
export class BotTurnsProcess {
  private readonly logger = new Logger('BotTurns');

  initialState(): BotTurnsState {
    return { handId: null, variant: 'TEXAS_HOLDEM', botDelayMs: DEFAULT_BOT_DELAY_MS, ended: false, bots: null };
  }

  /**
   * A table event: its instance is the hand it starts, whose bots it notes (as the hand starts) once. A
   * hand of people starts none: the hand's later events then reach no instance, and no step of theirs is
   * recorded (each recorded step is a commit).
   */
  @OnEvent(HandStarted, { key: 'handId' })
  async onHandStarted(event: HandStarted, ctx: Ctx): Promise<ProcessReaction> {
    if (ctx.state.handId !== null) return {};
    const bots = await botsAmong(ctx, event.players.map((player) => player.playerId));
    if (bots.length === 0) return {};
    return { events: [new BotTurnsStarted(event.handId, event.variant, event.botDelayMs ?? DEFAULT_BOT_DELAY_MS, bots)] };
  }

  /** The turn passes in a betting round, or at the showdown once a hand is shown or mucked. */
  @OnEvent(BlindPosted, ActionTaken, CommunityCardsDealt, CardsRevealed, CardsMucked)
  async onTurn(event: BlindPosted | ActionTaken | CommunityCardsDealt | CardsRevealed | CardsMucked, ctx: Ctx): Promise<ProcessReaction> {
    if (!following(ctx.state)) return {};
    return (event.actionOn ?? null) === null ? { cancel: [BOT] } : next(ctx);
  }

  /** A draw passes the turn to draw to the next player, or (the last one) opens the final betting round. */
  @OnEvent(DrawCompleted)
  async onDrawCompleted(_event: DrawCompleted, ctx: Ctx): Promise<ProcessReaction> {
    if (!following(ctx.state)) return {};
    return next(ctx);
  }

  /** In Five Card Draw a closed round may open the draw (at a showdown nobody is to move). */
  @OnEvent(BettingRoundComplete)
  async onRoundComplete(_event: BettingRoundComplete, ctx: Ctx): Promise<ProcessReaction> {
    if (!following(ctx.state)) return {};
    return ctx.state.variant === 'FIVE_CARD_DRAW' ? next(ctx) : { cancel: [BOT] };
  }

  @OnEvent(HandComplete)
  onHandComplete(_event: HandComplete, { state }: Ctx): ProcessReaction {
    if (!following(state)) return {};
    return { events: [new BotTurnsEnded()], cancel: [BOT] };
  }

  /** Sends the moves the timer carries, as decided when it was scheduled: no reading, no deciding. */
  @OnTimeout(BOT)
  onBotTimer(timer: BotTimer | null, { state }: Ctx): ProcessReaction {
    // A timer due as the hand ended, or one from before timers carried their moves, sends nothing.
    if (state.ended || !timer?.moves) return {};
    return { emit: timer.moves.map((move) => botMoveEmission(timer.handId, timer.handSequence, move)) };
  }

  @OnRejected()
  onRejected(rejection: CommandRejection): ProcessReaction {
    if (!STALE.has(rejection.code)) this.logger.warn(`${rejection.commandType} was refused: ${rejection.code} ${rejection.message}`);
    return {};
  }

  @Apply(BotTurnsStarted)
  onStarted(state: BotTurnsState, event: BotTurnsStarted): void {
    Object.assign(state, { handId: event.handId, variant: event.variant, botDelayMs: event.botDelayMs, bots: event.bots ?? null });
  }

  @Apply(BotTurnsEnded)
  onEnded(state: BotTurnsState): void {
    state.ended = true;
  }
}

/** A hand with no bot has no turn to follow (an instance started with none, before such hands started none): no timer is ever started, so none is stopped. */
function following(state: BotTurnsState): boolean {
  return state.handId !== null && !state.ended && state.bots?.length !== 0;
}

/** The bots among `playerIds`, as of the event in hand. */
async function botsAmong(ctx: Ctx, playerIds: readonly string[]): Promise<string[]> {
  const bots: string[] = [];
  for (const playerId of playerIds) {
    if ((await ctx.stateOf<PlayerState>('player', playerId)).playerType === 'AI') bots.push(playerId);
  }
  return bots;
}

/**
 * The turn passed: the previous bot timer (if any) is void. The bots to move decide now, on the hand
 * as of the event that passed the turn (its sequence is the one their bet expects); if any is to
 * move, their moves wait `botDelayMs` in the timer.
 */
async function next(ctx: Ctx): Promise<ProcessReaction> {
  const handId = ctx.state.handId!;
  const hand = await ctx.stateOf<HandState>('hand', handId);
  const toMove = playersToMove(hand);
  const known = ctx.state.bots;
  const bots = new Set(known === null ? await botsAmong(ctx, toMove) : toMove.filter((playerId) => known.includes(playerId)));
  const { moves, handSequence } = planBotMoves(hand, ctx.envelope!.sequence, bots);
  if (moves.length === 0) return { cancel: [BOT] };
  const timer: BotTimer = { handId, handSequence, moves };
  return { cancel: [BOT], schedule: [{ name: BOT, afterMs: ctx.state.botDelayMs, payload: timer }] };
}
