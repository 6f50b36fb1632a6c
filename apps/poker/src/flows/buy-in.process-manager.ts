import { Logger } from '@nestjs/common';
import {
  AggregateReader,
  Apply,
  type CommandRejection,
  ErrorCode,
  EventSourcingError,
  OnEvent,
  OnRejected,
  ProcessManager,
  type ProcessReaction,
  type StoredEvent,
} from '@nest-es/core';
import { FundsReserved, ReleaseFunds } from '../player/index.js';
import { JoinTable, PlayerJoined, type TableState } from '../table/index.js';
import { BuyInCompleted, type BuyInFailureCode, BuyInFailed, BuyInInitiated } from './buy-in.events.js';
import { buyInProblem } from './buy-in.validation.js';

/** Metadata key on ReserveFunds (and so on FundsReserved) that makes the reservation a buy-in for that seat. */
export const BUY_IN_SEAT = 'buyInSeat';

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
 *
 * Reading the table is the one look outside the flow's own history, and a redelivered step
 * recomputes its reaction: so that step only records what it saw (BuyInInitiated, and BuyInFailed
 * when the request does not fit), and the commands follow from those recorded events, which
 * never change.
 */
@ProcessManager('buy-in', { startsOn: [FundsReserved] })
export class BuyInProcess {
  private readonly logger = new Logger('BuyIn');

  constructor(private readonly reader: AggregateReader) {}

  initialState(): BuyInState {
    return { playerId: '', tableId: '', seat: -1, amount: 0, status: 'new', code: null };
  }

  @OnEvent(FundsReserved)
  async onFundsReserved(event: FundsReserved, state: BuyInState, _context: unknown, envelope: StoredEvent): Promise<ProcessReaction> {
    const seat = envelope.metadata[BUY_IN_SEAT];
    // A reservation made without a buy-in request is none of this flow's business.
    if (state.status !== 'new' || typeof seat !== 'number') return {};
    const initiated = new BuyInInitiated(envelope.aggregateId, event.tableId, seat, event.amount);
    const table = await this.table(event.tableId);
    const problem = table && buyInProblem(table, seat, event.amount);
    return { events: problem ? [initiated, new BuyInFailed(problem.code, problem.reason)] : [initiated] };
  }

  @OnEvent(BuyInInitiated)
  onInitiated(event: BuyInInitiated, state: BuyInState): ProcessReaction {
    if (state.status !== 'initiated') return {};
    return { emit: [Object.assign(new JoinTable(), { tableId: event.tableId, playerId: event.playerId, seat: event.seat, buyIn: event.amount })] };
  }

  @OnEvent(PlayerJoined)
  onPlayerJoined(event: PlayerJoined, state: BuyInState): ProcessReaction {
    if (state.status !== 'initiated' || event.playerId !== state.playerId) return {};
    return { events: [new BuyInCompleted(event.seat)] };
  }

  @OnEvent(BuyInFailed)
  onFailed(_event: BuyInFailed, state: BuyInState): ProcessReaction {
    return { emit: [Object.assign(new ReleaseFunds(), { playerId: state.playerId, tableId: state.tableId })] };
  }

  @OnRejected()
  onRejected(rejection: CommandRejection, state: BuyInState): ProcessReaction {
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

  /** The table as the write side has it now; null when it does not exist (JoinTable then says so). */
  private async table(tableId: string): Promise<TableState | null> {
    try {
      return (await this.reader.state('table', tableId)).state as TableState;
    } catch (error) {
      if (error instanceof EventSourcingError && error.code === ErrorCode.NOT_FOUND) return null;
      throw error;
    }
  }
}
