import { Aggregate, AggregateId, type AggregateOptions, Apply, CommandHandler, withSnapshot } from '@nest-es/core';
import { IsBoolean, IsInt, IsOptional, IsString, Min } from 'class-validator';

/** Appends `count` Counted events, then a Milestone if asked; hands back `handBack` merged into the new state as a snapshot. */
export class Count {
  @AggregateId() @IsString() tallyId!: string;
  @IsInt() @Min(1) count!: number;
  @IsOptional() @IsBoolean() milestone?: boolean;
  @IsOptional() handBack?: Record<string, unknown>;

  constructor(tallyId: string, count: number, options: { milestone?: boolean; handBack?: Record<string, unknown> } = {}) {
    this.tallyId = tallyId;
    this.count = count;
    this.milestone = options.milestone;
    this.handBack = options.handBack;
  }
}

export class Counted {}

export class Milestone {}

export interface TallyState {
  total: number;
  milestones: number;
  [marker: string]: unknown;
}

/**
 * A test aggregate of type 'tally' with the given options (snapshot policy, state version). A factory,
 * because the options are fixed at decoration: each suite boots the variant it needs.
 */
export function tallyAggregate(options: AggregateOptions = {}) {
  @Aggregate('tally', options)
  class TallyAggregate {
    initialState(): TallyState {
      return { total: 0, milestones: 0 };
    }

    @CommandHandler(Count, { emits: [Counted, Milestone] })
    count(command: Count, state: TallyState) {
      const events: object[] = Array.from({ length: command.count }, () => new Counted());
      if (command.milestone) events.push(new Milestone());
      if (command.handBack === undefined) return events;
      const after = { ...state, total: state.total + command.count, milestones: state.milestones + (command.milestone ? 1 : 0) };
      return withSnapshot(events, { ...after, ...command.handBack });
    }

    @Apply(Counted)
    onCounted(state: TallyState): void {
      state.total++;
    }

    @Apply(Milestone)
    onMilestone(state: TallyState): void {
      state.milestones++;
    }
  }
  return TallyAggregate;
}
