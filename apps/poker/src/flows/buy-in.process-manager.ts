import { Logger } from '@nestjs/common';
import {
  Apply,
  type CommandRejection,
  emit,
  OnEvent,
  OnRejected,
  type ProcessContext,
  ProcessManager,
  type ProcessReaction,
} from '@nest-es/core';
import { FundsReserved, ReleaseFunds } from '../player/index.js';
import { JoinTable, PlayerJoined, PlayerToppedUp, type TableState, TopUp } from '../table/index.js';
import { BuyInCompleted, type BuyInFailureCode, BuyInFailed, BuyInInitiated } from './buy-in.events.js';
import { buyInProblem, topUpProblem } from './buy-in.validation.js';

/** Metadata key on ReserveFunds (and so on FundsReserved) that makes the reservation a buy-in for that seat. */
export const BUY_IN_SEAT = 'buyInSeat';
/** Metadata key on ReserveFunds (and so on FundsReserved), `true`: the reservation is a top-up of the player's stack at the table. */
export const TOP_UP = 'topUp';

type Ctx = ProcessContext<BuyInState>;

export interface BuyInState {
  playerId: string;
  tableId: string;
  seat: number;
  amount: number;
  /** A top-up of a seated player's stack rather than a seat. */
  topUp: boolean;
  status: 'new' | 'initiated' | 'completed' | 'failed';
  code: BuyInFailureCode | null;
}

/**
 * One buy-in, keyed by the fresh correlation id of its request (`POST /tables/:id/buy-in` sends
 * ReserveFunds with it and the seat as metadata). Funds reserved -> checked against the table ->
 * JoinTable; PlayerJoined completes it; a failed check or a refused JoinTable releases the funds.
 * A top-up (`POST /tables/:id/top-up`: ReserveFunds with `topUp`, metadata TOP_UP) runs the same
 * way: its reservation is added to the player's, it is checked against the table's maxBuyIn, TopUp
 * credits the stack and PlayerToppedUp completes it; a failure releases the top-up alone.
 * The correlation id stays the key: no event names the request itself (a player may buy in at the
 * same table again after leaving it, and top up through the same flow), and every command of the
 * flow, and so PlayerJoined, carries it.
 *
 * The table is read as of the reservation (`ctx.stateOf`), so a redelivered step decides the same;
 * that step records what it saw (BuyInInitiated, and BuyInFailed when the request does not fit), and
 * the commands follow from those recorded events.
 */
@ProcessManager('buy-in', { startsOn: [FundsReserved] })
export class BuyInProcess {
  private readonly logger = new Logger('BuyIn');

  initialState(): BuyInState {
    return { playerId: '', tableId: '', seat: -1, amount: 0, topUp: false, status: 'new', code: null };
  }

  @OnEvent(FundsReserved)
  async onFundsReserved(event: FundsReserved, ctx: Ctx): Promise<ProcessReaction> {
    const { state, envelope } = ctx;
    const seat = envelope!.metadata[BUY_IN_SEAT];
    const topUp = envelope!.metadata[TOP_UP] === true;
    // A reservation made without a buy-in or top-up request is none of this flow's business.
    if (state.status !== 'new' || (typeof seat !== 'number' && !topUp)) return {};
    const playerId = envelope!.aggregateId;
    const table = await ctx.stateOf<TableState>('table', event.tableId);
    if (topUp) {
      const at = Object.entries(table.seats).find(([, occupant]) => occupant.playerId === playerId)?.[0];
      const initiated = new BuyInInitiated(playerId, event.tableId, at === undefined ? -1 : Number(at), event.amount, true);
      // Not seated, or a hand in progress: the table refuses TopUp itself, and says so.
      const problem = topUpProblem(table, playerId, event.amount);
      return { events: problem ? [initiated, new BuyInFailed(problem.code, problem.reason)] : [initiated] };
    }
    const initiated = new BuyInInitiated(playerId, event.tableId, seat as number, event.amount);
    // A table that does not exist refuses JoinTable itself, and says so.
    const problem = table.created ? buyInProblem(table, seat as number, event.amount) : null;
    return { events: problem ? [initiated, new BuyInFailed(problem.code, problem.reason)] : [initiated] };
  }

  @OnEvent(BuyInInitiated)
  onInitiated(event: BuyInInitiated, { state }: Ctx): ProcessReaction {
    if (state.status !== 'initiated') return {};
    if (event.topUp) return { emit: [emit(TopUp, { tableId: event.tableId, playerId: event.playerId, amount: event.amount })] };
    return { emit: [emit(JoinTable, { tableId: event.tableId, playerId: event.playerId, seat: event.seat, buyIn: event.amount })] };
  }

  @OnEvent(PlayerJoined)
  onPlayerJoined(event: PlayerJoined, { state }: Ctx): ProcessReaction {
    if (state.status !== 'initiated' || state.topUp || event.playerId !== state.playerId) return {};
    return { events: [new BuyInCompleted(event.seat)] };
  }

  @OnEvent(PlayerToppedUp)
  onPlayerToppedUp(event: PlayerToppedUp, { state }: Ctx): ProcessReaction {
    if (state.status !== 'initiated' || !state.topUp || event.playerId !== state.playerId) return {};
    return { events: [new BuyInCompleted(event.seat)] };
  }

  /** Releases what this flow reserved: the whole reservation of a buy-in, the top-up alone of a top-up. */
  @OnEvent(BuyInFailed)
  onFailed(_event: BuyInFailed, { state }: Ctx): ProcessReaction {
    const part = state.topUp ? { amount: state.amount } : {};
    return { emit: [emit(ReleaseFunds, { playerId: state.playerId, tableId: state.tableId, ...part })] };
  }

  @OnRejected()
  onRejected(rejection: CommandRejection, { state }: Ctx): ProcessReaction {
    const credit = rejection.command instanceof JoinTable || rejection.command instanceof TopUp;
    if (credit && state.status === 'initiated') return { events: [new BuyInFailed('SEATING_REJECTED', rejection.message)] };
    this.logger.warn(`${rejection.commandType} of buy-in for ${state.playerId} at ${state.tableId} was refused: ${rejection.message}`);
    return {};
  }

  @Apply(BuyInInitiated)
  onInitiatedApplied(state: BuyInState, event: BuyInInitiated): void {
    Object.assign(state, { playerId: event.playerId, tableId: event.tableId, seat: event.seat, amount: event.amount, topUp: event.topUp === true, status: 'initiated' });
  }

  @Apply(BuyInCompleted)
  onCompletedApplied(state: BuyInState, event: BuyInCompleted): void {
    state.status = 'completed';
    state.seat = event.seat;
  }

  @Apply(BuyInFailed)
  onFailedApplied(state: BuyInState, event: BuyInFailed): void {
    state.status = 'failed';
    state.code = event.code;
  }
}
