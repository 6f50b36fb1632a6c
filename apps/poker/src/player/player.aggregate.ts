import { Aggregate, Apply, CommandHandler, FailedPreconditionError, MergeStrategy } from '@nest-es/core';
import {
  MAX_BANKROLL,
  DepositFunds,
  RegisterPlayer,
  ReleaseFunds,
  RenamePlayer,
  ReserveFunds,
  SettleTableSession,
  SitIn,
  SitOut,
  WithdrawFunds,
} from './player.commands.js';
import {
  FundsDeposited,
  FundsReleased,
  FundsReserved,
  FundsWithdrawn,
  PlayerRegistered,
  PlayerRenamed,
  PlayerReturningToPlay,
  PlayerSittingOut,
  SessionSettled,
} from './player.events.js';
import { initialPlayerState, type PlayerState } from './player.state.js';
import { playerView } from './player.view.js';

/**
 * A player's identity and bankroll. COMMUTATIVE: each handler declares the fields it changes,
 * so a rename and a deposit racing on one player both land, while two withdrawals do not.
 */
@Aggregate('player', { mergeStrategy: MergeStrategy.COMMUTATIVE, view: playerView })
export class PlayerAggregate {
  initialState(): PlayerState {
    return initialPlayerState();
  }

  @CommandHandler(RegisterPlayer, { emits: [PlayerRegistered], modifies: ['registered', 'displayName', 'email', 'playerType'] })
  register(command: RegisterPlayer, state: PlayerState): PlayerRegistered {
    if (state.registered) throw new FailedPreconditionError(`player is already registered as '${state.displayName}'`);
    return new PlayerRegistered(command.displayName, command.email, command.playerType ?? 'HUMAN');
  }

  @CommandHandler(RenamePlayer, { emits: [PlayerRenamed], modifies: ['displayName'], http: true })
  rename(command: RenamePlayer, state: PlayerState): PlayerRenamed {
    requireRegistered(state);
    return new PlayerRenamed(command.displayName);
  }

  @CommandHandler(DepositFunds, { emits: [FundsDeposited], modifies: ['bankroll'] })
  deposit(command: DepositFunds, state: PlayerState): FundsDeposited {
    requireRegistered(state);
    if (state.bankroll + command.amount > MAX_BANKROLL) {
      throw new FailedPreconditionError(`a bankroll holds at most ${MAX_BANKROLL} chips: bankroll ${state.bankroll}, deposit ${command.amount}`);
    }
    return new FundsDeposited(command.amount, state.bankroll + command.amount);
  }

  @CommandHandler(WithdrawFunds, { emits: [FundsWithdrawn], modifies: ['bankroll'], http: true })
  withdraw(command: WithdrawFunds, state: PlayerState): FundsWithdrawn {
    requireRegistered(state);
    if (command.amount > state.available) {
      throw new FailedPreconditionError(`insufficient funds: available ${state.available}, requested ${command.amount}`);
    }
    return new FundsWithdrawn(command.amount, state.bankroll - command.amount);
  }

  /** One reservation per table: a buy-in makes it, a top-up (`topUp`) adds to it. */
  @CommandHandler(ReserveFunds, { emits: [FundsReserved], modifies: ['reservations'] })
  reserve(command: ReserveFunds, state: PlayerState): FundsReserved {
    requireRegistered(state);
    const reserved = reservationAt(state, command.tableId);
    if (command.topUp && reserved === undefined) {
      throw new FailedPreconditionError(`no funds are reserved for table ${command.tableId}: buy in before topping up`);
    }
    if (!command.topUp && reserved !== undefined) {
      throw new FailedPreconditionError(`funds are already reserved for table ${command.tableId}: ${reserved}`);
    }
    if (command.amount > state.available) {
      throw new FailedPreconditionError(`insufficient funds: available ${state.available}, requested ${command.amount}`);
    }
    return new FundsReserved(command.amount, command.tableId, state.available - command.amount);
  }

  @CommandHandler(ReleaseFunds, { emits: [FundsReleased], modifies: ['reservations'] })
  release(command: ReleaseFunds, state: PlayerState): FundsReleased {
    const reserved = requireReservation(state, command.tableId);
    const amount = command.amount ?? reserved;
    if (amount > reserved) throw new FailedPreconditionError(`cannot release ${amount} chips: ${reserved} are reserved for table ${command.tableId}`);
    return new FundsReleased(amount, command.tableId, state.available + amount);
  }

  /**
   * The chips the player brought to the table (`boughtIn`, else the whole reservation) leave the
   * reservation and the cash-out comes back in their place. A top-up the table has not credited
   * stays reserved until its flow releases it.
   */
  @CommandHandler(SettleTableSession, { emits: [SessionSettled], modifies: ['bankroll', 'reservations'] })
  settle(command: SettleTableSession, state: PlayerState): SessionSettled {
    const reserved = requireReservation(state, command.tableId);
    const settled = command.boughtIn ?? reserved;
    if (settled > reserved) throw new FailedPreconditionError(`table ${command.tableId} was brought ${settled} chips but only ${reserved} are reserved for it`);
    return new SessionSettled(command.tableId, settled, command.cashOut, state.bankroll + command.cashOut - settled);
  }

  @CommandHandler(SitOut, { emits: [PlayerSittingOut], modifies: ['status'], http: true })
  sitOut(_command: SitOut, state: PlayerState): PlayerSittingOut {
    const tables = requireSeated(state);
    if (state.status === 'sitting_out') throw new FailedPreconditionError('player is already sitting out');
    return new PlayerSittingOut(tables);
  }

  @CommandHandler(SitIn, { emits: [PlayerReturningToPlay], modifies: ['status'], http: true })
  sitIn(_command: SitIn, state: PlayerState): PlayerReturningToPlay {
    const tables = requireSeated(state);
    if (state.status === 'active') throw new FailedPreconditionError('player is not sitting out');
    return new PlayerReturningToPlay(tables);
  }

  @Apply(PlayerRegistered)
  onRegistered(state: PlayerState, event: PlayerRegistered): void {
    state.registered = true;
    state.displayName = event.displayName;
    state.email = event.email;
    state.playerType = event.playerType;
  }

  @Apply(PlayerRenamed)
  onRenamed(state: PlayerState, event: PlayerRenamed): void {
    state.displayName = event.displayName;
  }

  @Apply(FundsDeposited)
  onDeposited(state: PlayerState, event: FundsDeposited): void {
    setBankroll(state, event.newBalance);
  }

  @Apply(FundsWithdrawn)
  onWithdrawn(state: PlayerState, event: FundsWithdrawn): void {
    setBankroll(state, event.newBalance);
  }

  /** A buy-in's reservation, or a top-up added to it. */
  @Apply(FundsReserved)
  onReserved(state: PlayerState, event: FundsReserved): void {
    setReservation(state, event.tableId, (reservationAt(state, event.tableId) ?? 0) + event.amount);
    recompute(state);
  }

  /** The whole reservation, or part of it (a failed top-up). */
  @Apply(FundsReleased)
  onReleased(state: PlayerState, event: FundsReleased): void {
    setReservation(state, event.tableId, (reservationAt(state, event.tableId) ?? 0) - event.amount);
    recompute(state);
  }

  @Apply(SessionSettled)
  onSettled(state: PlayerState, event: SessionSettled): void {
    setReservation(state, event.tableId, (reservationAt(state, event.tableId) ?? 0) - event.reserved);
    setBankroll(state, event.newBalance);
    if (Object.keys(state.reservations).length === 0) state.status = 'active';
  }

  @Apply(PlayerSittingOut)
  onSittingOut(state: PlayerState): void {
    state.status = 'sitting_out';
  }

  @Apply(PlayerReturningToPlay)
  onReturning(state: PlayerState): void {
    state.status = 'active';
  }
}

function requireRegistered(state: PlayerState): void {
  if (!state.registered) throw new FailedPreconditionError('player is not registered');
}

function requireReservation(state: PlayerState, tableId: string): number {
  requireRegistered(state);
  const amount = reservationAt(state, tableId);
  if (amount === undefined) throw new FailedPreconditionError(`no funds are reserved for table ${tableId}`);
  return amount;
}

/** Own keys only: table ids come from users, and "constructor" or "hasOwnProperty" must not find Object's members. */
function reservationAt(state: PlayerState, tableId: string): number | undefined {
  return Object.hasOwn(state.reservations, tableId) ? state.reservations[tableId] : undefined;
}

/** Sets what is reserved for a table; nothing left, no reservation. */
function setReservation(state: PlayerState, tableId: string, amount: number): void {
  if (amount <= 0) {
    delete state.reservations[tableId];
    return;
  }
  // defineProperty: a table id such as "__proto__" is an own key like any other, never the prototype.
  Object.defineProperty(state.reservations, tableId, { value: amount, enumerable: true, writable: true, configurable: true });
}

function requireSeated(state: PlayerState): string[] {
  requireRegistered(state);
  const tables = Object.keys(state.reservations);
  if (tables.length === 0) throw new FailedPreconditionError('player is not seated at any table');
  return tables;
}

function setBankroll(state: PlayerState, bankroll: number): void {
  state.bankroll = bankroll;
  recompute(state);
}

/** reserved and available are derived, kept in state so reads and merges see them. */
function recompute(state: PlayerState): void {
  state.reserved = Object.values(state.reservations).reduce((sum, amount) => sum + amount, 0);
  state.available = state.bankroll - state.reserved;
}
