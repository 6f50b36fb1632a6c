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
import { JoinTable, PlayerJoined, type TableState } from '../table/index.js';
import { BuyInCompleted, type BuyInFailureCode, BuyInFailed, BuyInInitiated } from './buy-in.events.js';
import { buyInProblem } from './buy-in.validation.js';

/** Metadata key on ReserveFunds (and so on FundsReserved) that makes the reservation a buy-in for that seat. */
export const BUY_IN_SEAT = 'buyInSeat';

type Ctx = ProcessContext<BuyInState>;

export interface BuyInState {
  playerId: string;
  tableId: string;
  seat: number;
  amount: number;
  status: 'new' | 'initiated' | 'completed' | 'failed';
  code: BuyInFailureCode | null;
}

/**
 * One buy-in, keyed by the fresh correlation id of its request (`POST /tables/:id/buy-in` sends
 * ReserveFunds with it and the seat as metadata). Funds reserved -> checked against the table ->
 * JoinTable; PlayerJoined completes it; a failed check or a refused JoinTable releases the funds.
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
    return { playerId: '', tableId: '', seat: -1, amount: 0, status: 'new', code: null };
  }

  @OnEvent(FundsReserved)
  async onFundsReserved(event: FundsReserved, ctx: Ctx): Promise<ProcessReaction> {
    const { state, envelope } = ctx;
    const seat = envelope!.metadata[BUY_IN_SEAT];
    // A reservation made without a buy-in request is none of this flow's business.
    if (state.status !== 'new' || typeof seat !== 'number') return {};
    const initiated = new BuyInInitiated(envelope!.aggregateId, event.tableId, seat, event.amount);
    const table = await ctx.stateOf<TableState>('table', event.tableId);
    // A table that does not exist refuses JoinTable itself, and says so.
    const problem = table.created ? buyInProblem(table, seat, event.amount) : null;
    return { events: problem ? [initiated, new BuyInFailed(problem.code, problem.reason)] : [initiated] };
  }

  @OnEvent(BuyInInitiated)
  onInitiated(event: BuyInInitiated, { state }: Ctx): ProcessReaction {
    if (state.status !== 'initiated') return {};
    return { emit: [emit(JoinTable, { tableId: event.tableId, playerId: event.playerId, seat: event.seat, buyIn: event.amount })] };
  }

  @OnEvent(PlayerJoined)
  onPlayerJoined(event: PlayerJoined, { state }: Ctx): ProcessReaction {
    if (state.status !== 'initiated' || event.playerId !== state.playerId) return {};
    return { events: [new BuyInCompleted(event.seat)] };
  }

  @OnEvent(BuyInFailed)
  onFailed(_event: BuyInFailed, { state }: Ctx): ProcessReaction {
    return { emit: [emit(ReleaseFunds, { playerId: state.playerId, tableId: state.tableId })] };
  }

  @OnRejected()
  onRejected(rejection: CommandRejection, { state }: Ctx): ProcessReaction {
    if (rejection.command instanceof JoinTable && state.status === 'initiated') return { events: [new BuyInFailed('SEATING_REJECTED', rejection.message)] };
    this.logger.warn(`${rejection.commandType} of buy-in for ${state.playerId} at ${state.tableId} was refused: ${rejection.message}`);
    return {};
  }

  @Apply(BuyInInitiated)
  onInitiatedApplied(state: BuyInState, event: BuyInInitiated): void {
    Object.assign(state, { playerId: event.playerId, tableId: event.tableId, seat: event.seat, amount: event.amount, status: 'initiated' });
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
