import { Aggregate, AggregateId, Apply, CommandHandler, FailedPreconditionError } from '@nest-es/core';
import { IsInt, IsPositive, IsString, Length } from 'class-validator';

export class RegisterPlayer {
  @AggregateId() @IsString() playerId!: string;
  @IsString() @Length(1, 50) displayName!: string;
}

export class DepositFunds {
  @AggregateId() @IsString() playerId!: string;
  @IsInt() @IsPositive() amount!: number;
}

export class PlayerRegistered {
  constructor(readonly displayName: string) {}
}

export class FundsDeposited {
  constructor(readonly amount: number, readonly newBalance: number) {}
}

interface PlayerState {
  registered: boolean;
  bankroll: number;
}

@Aggregate('player', { view: true }) // view: GET /aggregates/player/:id shows the whole state
export class PlayerAggregate {
  initialState(): PlayerState {
    return { registered: false, bankroll: 0 };
  }

  @CommandHandler(RegisterPlayer, { emits: [PlayerRegistered], http: true }) // http: routable over HTTP
  register(command: RegisterPlayer, state: PlayerState) {
    if (state.registered) throw new FailedPreconditionError('player is already registered');
    return new PlayerRegistered(command.displayName);
  }

  @CommandHandler(DepositFunds, { emits: [FundsDeposited], modifies: ['bankroll'], http: true })
  deposit(command: DepositFunds, state: PlayerState) {
    if (!state.registered) throw new FailedPreconditionError('player is not registered');
    return new FundsDeposited(command.amount, state.bankroll + command.amount);
  }

  @Apply(PlayerRegistered)
  onRegistered(state: PlayerState) {
    state.registered = true;
  }

  @Apply(FundsDeposited)
  onDeposited(state: PlayerState, event: FundsDeposited) {
    state.bankroll = event.newBalance; // appliers may change the state in place or return a new one
  }
}
