import { Aggregate, AggregateId, Apply, CommandHandler, MergeStrategy } from '@nest-es/core';
import { IsOptional, IsString } from 'class-validator';
import { passGate } from './gate.js';

/**
 * STRICT, like the poker hand (action order matters): any sequence mismatch is refused.
 * `Annotate` overrides the strategy for its handler: a note commutes with turns.
 */
abstract class TurnCommand {
  @AggregateId() @IsString() turnId!: string;
  @IsOptional() @IsString() gate?: string;
}

export class TakeTurn extends TurnCommand {
  @IsString() player!: string;
}
export class Annotate extends TurnCommand {
  @IsString() note!: string;
}

export class TurnTaken {
  constructor(readonly player: string) {}
}
export class Annotated {
  constructor(readonly note: string) {}
}

export interface TurnState {
  turns: number;
  lastPlayer: string;
  note: string;
}

@Aggregate('turn', { mergeStrategy: MergeStrategy.STRICT })
export class TurnAggregate {
  initialState(): TurnState {
    return { turns: 0, lastPlayer: '', note: '' };
  }

  @CommandHandler(TakeTurn, { emits: [TurnTaken], callerMergeStrategies: [MergeStrategy.COMMUTATIVE, MergeStrategy.MANUAL] })
  async take(command: TakeTurn): Promise<TurnTaken> {
    await passGate(command.gate);
    return new TurnTaken(command.player);
  }

  @CommandHandler(Annotate, { emits: [Annotated], modifies: ['note'], mergeStrategy: MergeStrategy.COMMUTATIVE })
  annotate(command: Annotate): Annotated {
    return new Annotated(command.note);
  }

  @Apply(TurnTaken)
  onTaken(state: TurnState, event: TurnTaken): void {
    state.turns++;
    state.lastPlayer = event.player;
  }

  @Apply(Annotated)
  onAnnotated(state: TurnState, event: Annotated): void {
    state.note = event.note;
  }
}
