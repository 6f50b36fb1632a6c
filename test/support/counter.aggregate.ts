import { Aggregate, AggregateId, Apply, CommandHandler } from '@nest-es/core';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

/** A test aggregate whose commands append several events at once, optionally slowly. */
export class AddMany {
  @AggregateId() @IsString() counterId!: string;
  @IsInt() @Min(1) @Max(50) count!: number;
  @IsOptional() @IsInt() @Min(0) delayMs?: number;

  constructor(counterId: string, count: number, delayMs?: number) {
    this.counterId = counterId;
    this.count = count;
    this.delayMs = delayMs;
  }
}

export class Added {
  constructor(
    readonly part: number,
    readonly of: number,
  ) {}
}

export interface CounterState {
  total: number;
}

@Aggregate('counter')
export class CounterAggregate {
  initialState(): CounterState {
    return { total: 0 };
  }

  @CommandHandler(AddMany, { emits: [Added] })
  async add(command: AddMany): Promise<Added[]> {
    if (command.delayMs) await new Promise((resolve) => setTimeout(resolve, command.delayMs));
    return Array.from({ length: command.count }, (_, i) => new Added(i + 1, command.count));
  }

  @Apply(Added)
  onAdded(state: CounterState): void {
    state.total++;
  }
}
