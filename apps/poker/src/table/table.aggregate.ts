import { Aggregate, Apply, type CommandContext, CommandHandler, FailedPreconditionError, InvalidArgumentError } from '@nest-es/core';
import { blindPositions, clockwiseAfter } from '../cards/index.js';
import { CreateTable, DEFAULT_ACTION_TIMEOUT_MS, DEFAULT_BOT_DELAY_MS, EndHand, JoinTable, LeaveTable, StartHand, TopUp } from './table.commands.js';
import { HandEnded, type HandPlayer, HandStarted, PlayerJoined, PlayerLeft, PlayerSatIn, PlayerSatOut, PlayerToppedUp, TableCreated } from './table.events.js';
import { initialTableState, type Seat, type TableState } from './table.state.js';
import { tableView } from './table.view.js';

/**
 * A table: its seats and stacks between hands, the dealer button, and which hand is running.
 * Merge strategy COMMUTATIVE (the default) with undeclared fields: the framework diffs what a
 * command changed, so two players joining different seats at once both land.
 */
@Aggregate('table', { snapshot: { every: 100 }, view: tableView })
export class TableAggregate {
  initialState(): TableState {
    return initialTableState();
  }

  @CommandHandler(CreateTable, { emits: [TableCreated], http: true })
  create(command: CreateTable, state: TableState): TableCreated {
    if (state.created) throw new FailedPreconditionError(`table already exists as '${state.name}'`);
    if (command.smallBlind > command.bigBlind) {
      throw new InvalidArgumentError(`smallBlind ${command.smallBlind} must not exceed bigBlind ${command.bigBlind}`);
    }
    if (command.minBuyIn > command.maxBuyIn) {
      throw new InvalidArgumentError(`minBuyIn ${command.minBuyIn} must not exceed maxBuyIn ${command.maxBuyIn}`);
    }
    const { name, variant, smallBlind, bigBlind, minBuyIn, maxBuyIn, maxPlayers } = command;
    const actionTimeoutMs = command.actionTimeoutMs ?? DEFAULT_ACTION_TIMEOUT_MS;
    const botDelayMs = command.botDelayMs ?? DEFAULT_BOT_DELAY_MS;
    // A bot slower than the action timeout would be folded by the hand flow before it moves.
    if (botDelayMs >= actionTimeoutMs) throw new InvalidArgumentError(`botDelayMs ${botDelayMs} must be less than actionTimeoutMs ${actionTimeoutMs}`);
    return new TableCreated(name, variant, smallBlind, bigBlind, minBuyIn, maxBuyIn, maxPlayers, actionTimeoutMs, botDelayMs);
  }

  @CommandHandler(JoinTable, { emits: [PlayerJoined] })
  join(command: JoinTable, state: TableState): PlayerJoined {
    requireTable(state);
    const { playerId, buyIn } = command;
    if (buyIn < state.minBuyIn || buyIn > state.maxBuyIn) {
      throw new InvalidArgumentError(`buy-in ${buyIn} is outside the table's range [${state.minBuyIn}, ${state.maxBuyIn}]`);
    }
    if (command.seat >= state.maxPlayers) {
      throw new InvalidArgumentError(`seat ${command.seat} does not exist: this table has seats 0 to ${state.maxPlayers - 1}`);
    }
    const current = findSeat(state, playerId);
    if (current) throw new FailedPreconditionError(`player ${playerId} is already seated at seat ${current.position}`);
    const taken = Object.keys(state.seats).length;
    if (taken >= state.maxPlayers) throw new FailedPreconditionError(`table is full: ${taken} of ${state.maxPlayers} seats taken`);
    const seat = command.seat === -1 ? lowestFreeSeat(state) : command.seat;
    const occupant = state.seats[seat];
    if (occupant) throw new FailedPreconditionError(`seat ${seat} is occupied by ${occupant.playerId}`);
    return new PlayerJoined(playerId, seat, buyIn, buyIn);
  }

  /** Between hands, a seated player's stack grows by chips reserved in their bankroll, up to the maxBuyIn. */
  @CommandHandler(TopUp, { emits: [PlayerToppedUp] })
  topUp(command: TopUp, state: TableState): PlayerToppedUp {
    requireTable(state);
    const { playerId, amount } = command;
    if (amount > state.maxBuyIn) throw new InvalidArgumentError(`top-up ${amount} is above the table's maxBuyIn ${state.maxBuyIn}`);
    const seat = requireSeated(state, playerId);
    if (state.status === 'in_hand') throw new FailedPreconditionError(`player ${playerId} cannot top up during hand ${state.currentHandId}: top up between hands`);
    const problem = topUpBeyondMax(state, playerId, amount);
    if (problem) throw new FailedPreconditionError(problem);
    return new PlayerToppedUp(playerId, seat.position, amount, seat.stack + amount);
  }

  @CommandHandler(LeaveTable, { emits: [PlayerLeft], http: true })
  leave(command: LeaveTable, state: TableState): PlayerLeft {
    requireTable(state);
    const seat = requireSeated(state, command.playerId);
    if (state.status === 'in_hand') throw new FailedPreconditionError(`player ${command.playerId} cannot leave during hand ${state.currentHandId}`);
    return new PlayerLeft(command.playerId, seat.position, seat.stack, seat.boughtIn);
  }

  @CommandHandler(StartHand, { emits: [HandStarted], http: true })
  startHand(command: StartHand, state: TableState, context: CommandContext): HandStarted {
    requireTable(state);
    if (state.status === 'in_hand') throw new FailedPreconditionError(`hand ${state.currentHandId} is still in progress`);
    // Players with no chips left cannot post or bet, so they sit this hand out like those sitting out.
    const ready: HandPlayer[] = seated(state)
      .filter((seat) => !seat.sittingOut && seat.stack > 0)
      .map(({ playerId, position, stack }) => ({ playerId, position, stack }));
    if (ready.length < 2) {
      throw new FailedPreconditionError(`a hand needs at least 2 players with chips who are not sitting out, the table has ${ready.length}`);
    }
    const dealer = state.dealerPosition === -1 ? ready[0].position : clockwiseAfter(ready, state.dealerPosition)[0].position;
    const blinds = blindPositions(ready, dealer);
    const handNumber = state.handCount + 1;
    return new HandStarted(
      `${context.aggregateId}-hand-${handNumber}`,
      handNumber,
      state.variant,
      dealer,
      blinds.small,
      blinds.big,
      state.smallBlind,
      state.bigBlind,
      clockwiseAfter(ready, dealer),
      context.aggregateId,
      state.actionTimeoutMs,
      command.seed ?? null,
      state.botDelayMs,
    );
  }

  @CommandHandler(EndHand, { emits: [HandEnded] })
  endHand(command: EndHand, state: TableState): HandEnded {
    requireTable(state);
    if (state.status !== 'in_hand' || state.currentHandId !== command.handId) {
      throw new FailedPreconditionError(`hand ${command.handId} is not in progress (current hand: ${state.currentHandId ?? 'none'})`);
    }
    const changes = Object.entries(command.stackChanges);
    for (const [playerId, change] of changes) {
      if (!Number.isSafeInteger(change)) throw new InvalidArgumentError(`stackChanges.${playerId} must be a whole number of chips, got ${JSON.stringify(change)}`);
    }
    const total = changes.reduce((sum, [, change]) => sum + change, 0);
    if (total > 0) throw new InvalidArgumentError(`stack changes sum to +${total}: a hand cannot create chips`);
    for (const [playerId, change] of changes) {
      const seat = requireSeated(state, playerId);
      if (seat.stack + change < 0) throw new FailedPreconditionError(`player ${playerId} cannot lose ${-change} chips with a stack of ${seat.stack}`);
    }
    return new HandEnded(command.handId, Object.fromEntries(changes));
  }

  @Apply(TableCreated)
  onCreated(state: TableState, event: TableCreated): void {
    Object.assign(state, {
      created: true,
      name: event.name,
      variant: event.variant,
      smallBlind: event.smallBlind,
      bigBlind: event.bigBlind,
      minBuyIn: event.minBuyIn,
      maxBuyIn: event.maxBuyIn,
      maxPlayers: event.maxPlayers,
      actionTimeoutMs: event.actionTimeoutMs,
      botDelayMs: event.botDelayMs ?? DEFAULT_BOT_DELAY_MS,
    });
  }

  @Apply(PlayerJoined)
  onJoined(state: TableState, event: PlayerJoined): void {
    state.seats[event.seat] = { playerId: event.playerId, stack: event.stack, sittingOut: false, boughtIn: event.buyIn };
  }

  @Apply(PlayerToppedUp)
  onToppedUp(state: TableState, event: PlayerToppedUp): void {
    const seat = state.seats[event.seat];
    seat.stack = event.stack;
    if (seat.boughtIn !== undefined) seat.boughtIn += event.amount;
  }

  @Apply(PlayerLeft)
  onLeft(state: TableState, event: PlayerLeft): void {
    delete state.seats[event.seat];
  }

  @Apply(HandStarted)
  onHandStarted(state: TableState, event: HandStarted): void {
    state.status = 'in_hand';
    state.currentHandId = event.handId;
    state.handCount = event.handNumber;
    state.dealerPosition = event.dealerPosition;
  }

  @Apply(HandEnded)
  onHandEnded(state: TableState, event: HandEnded): void {
    for (const [playerId, change] of Object.entries(event.stackChanges)) {
      const seat = findSeat(state, playerId);
      if (seat) state.seats[seat.position].stack += change;
    }
    state.status = 'waiting';
    state.currentHandId = null;
  }

  // Facts may name a player who has already left: there is then nothing to mark.
  @Apply(PlayerSatOut)
  onSatOut(state: TableState, event: PlayerSatOut): void {
    markSittingOut(state, event.playerId, true);
  }

  @Apply(PlayerSatIn)
  onSatIn(state: TableState, event: PlayerSatIn): void {
    markSittingOut(state, event.playerId, false);
  }
}

type SeatAt = Seat & { position: number };

function seated(state: TableState): SeatAt[] {
  return Object.entries(state.seats)
    .map(([position, seat]) => ({ ...seat, position: Number(position) }))
    .sort((a, b) => a.position - b.position);
}

function findSeat(state: TableState, playerId: string): SeatAt | undefined {
  return seated(state).find((seat) => seat.playerId === playerId);
}

function requireTable(state: TableState): void {
  if (!state.created) throw new FailedPreconditionError('table does not exist');
}

function requireSeated(state: TableState, playerId: string): SeatAt {
  const seat = findSeat(state, playerId);
  if (!seat) throw new FailedPreconditionError(`player ${playerId} is not seated at this table`);
  return seat;
}

/** Why a top-up of `amount` does not fit the player's stack (over the maxBuyIn), or null when it does. */
export function topUpBeyondMax(state: TableState, playerId: string, amount: number): string | null {
  const seat = findSeat(state, playerId);
  if (!seat || seat.stack + amount <= state.maxBuyIn) return null;
  return `a top-up of ${amount} would bring ${playerId}'s stack of ${seat.stack} to ${seat.stack + amount}, above the table's maxBuyIn ${state.maxBuyIn}`;
}

function lowestFreeSeat(state: TableState): number {
  let seat = 0;
  while (state.seats[seat]) seat++;
  return seat;
}

function markSittingOut(state: TableState, playerId: string, sittingOut: boolean): void {
  const seat = findSeat(state, playerId);
  if (seat) state.seats[seat.position].sittingOut = sittingOut;
}
