import { Aggregate, AggregateId, Apply, CommandHandler } from '@nest-es/core';
import { IsOptional, IsString } from 'class-validator';
import { passGate } from './gate.js';

/**
 * COMMUTATIVE without `modifies`: the merge finds the fields a command changes by running it
 * and diffing (nested: `address.city` vs `address.street`). Snapshots every 2 events, so merges
 * can start from a snapshot at or below the expected sequence.
 */
abstract class ProfileCommand {
  @AggregateId() @IsString() profileId!: string;
  /** Test hook: hold the handler at this gate (see gate.ts). */
  @IsOptional() @IsString() gate?: string;
}

export class CreateProfile extends ProfileCommand {
  @IsString() name!: string;
}
export class SetCity extends ProfileCommand {
  @IsString() city!: string;
}
export class SetStreet extends ProfileCommand {
  @IsString() street!: string;
}
export class SetName extends ProfileCommand {
  @IsString() name!: string;
}
/** Declares `modifies: ['*']`: its fields cannot be told, so a mismatch behaves as STRICT. */
export class ResetProfile extends ProfileCommand {}

export class ProfileCreated {
  constructor(readonly name: string) {}
}
export class CityChanged {
  constructor(readonly city: string) {}
}
export class StreetChanged {
  constructor(readonly street: string) {}
}
export class NameChanged {
  constructor(readonly name: string) {}
}
export class ProfileReset {}

export interface ProfileState {
  name: string;
  address: { city: string; street: string };
}

@Aggregate('profile', { snapshot: { every: 2 } })
export class ProfileAggregate {
  initialState(): ProfileState {
    return { name: '', address: { city: '', street: '' } };
  }

  @CommandHandler(CreateProfile, { emits: [ProfileCreated] })
  create(command: CreateProfile): ProfileCreated {
    return new ProfileCreated(command.name);
  }

  @CommandHandler(SetCity, { emits: [CityChanged] })
  async setCity(command: SetCity): Promise<CityChanged> {
    await passGate(command.gate);
    return new CityChanged(command.city);
  }

  @CommandHandler(SetStreet, { emits: [StreetChanged] })
  async setStreet(command: SetStreet): Promise<StreetChanged> {
    await passGate(command.gate);
    return new StreetChanged(command.street);
  }

  @CommandHandler(SetName, { emits: [NameChanged] })
  setName(command: SetName): NameChanged {
    return new NameChanged(command.name);
  }

  @CommandHandler(ResetProfile, { emits: [ProfileReset], modifies: ['*'] })
  reset(): ProfileReset {
    return new ProfileReset();
  }

  @Apply(ProfileCreated)
  onCreated(state: ProfileState, event: ProfileCreated): void {
    state.name = event.name;
  }

  @Apply(CityChanged)
  onCity(state: ProfileState, event: CityChanged): void {
    state.address.city = event.city;
  }

  @Apply(StreetChanged)
  onStreet(state: ProfileState, event: StreetChanged): void {
    state.address.street = event.street;
  }

  @Apply(NameChanged)
  onName(state: ProfileState, event: NameChanged): void {
    state.name = event.name;
  }

  @Apply(ProfileReset)
  onReset(): ProfileState {
    return this.initialState();
  }
}
