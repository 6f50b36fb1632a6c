import {
  Aggregate,
  AggregateId,
  Apply,
  CommandHandler,
  Merge,
  CustomMergeStrategy,
  type MergeConflict,
  type MergeStrategyHandler,
  type MergeVerdict,
} from '@nest-es/core';
import { IsString } from 'class-validator';

export class AddLine {
  @AggregateId() @IsString() notebookId!: string;
  @IsString() text!: string;
}

export class RenameNotebook {
  @AggregateId() @IsString() notebookId!: string;
  @IsString() title!: string;
}

export class LineAdded {
  constructor(readonly text: string) {}
}

export class NotebookRenamed {
  constructor(readonly title: string) {}
}

export interface NotebookState {
  title: string;
  lines: string[];
}

/**
 * A team's own merge strategy: a stale command goes ahead when everything stored since the
 * caller's sequence only added lines (appends commute); anything else is the caller's conflict.
 */
@CustomMergeStrategy('Lines-Commute')
export class LinesCommuteMerge implements MergeStrategyHandler {
  readonly seen: Array<{ command: string; expected: number; actual: number; between: string[]; titleSeen: string }> = [];

  async merge(conflict: MergeConflict): Promise<MergeVerdict> {
    const between = await conflict.eventsBetween();
    const expectedState = (await conflict.expectedState()) as NotebookState;
    this.seen.push({
      command: conflict.handler.commandType,
      expected: conflict.expectedSequence,
      actual: conflict.actualSequence,
      between: between.map((event) => event.type),
      titleSeen: expectedState.title,
    });
    const others = between.filter((event) => event.type !== 'LineAdded');
    if (others.length > 0) return Merge.refuse(`${others.length} event(s) other than LineAdded since sequence ${conflict.expectedSequence}`, { others: others.map((e) => e.type) });
    return Merge.proceed();
  }
}

/** Parks every stale command, whatever happened (a per-handler choice below, a per-call one in the test). */
@CustomMergeStrategy('always-park')
export class AlwaysParkMerge implements MergeStrategyHandler {
  merge(): MergeVerdict {
    return Merge.park();
  }
}

@Aggregate('notebook', { mergeStrategy: 'lines-commute', callerMergeStrategies: ['always-park'] })
export class NotebookAggregate {
  initialState(): NotebookState {
    return { title: '', lines: [] };
  }

  @CommandHandler(AddLine, { emits: [LineAdded] })
  add(command: AddLine): LineAdded {
    return new LineAdded(command.text);
  }

  @CommandHandler(RenameNotebook, { emits: [NotebookRenamed], mergeStrategy: 'always-park' })
  rename(command: RenameNotebook): NotebookRenamed {
    return new NotebookRenamed(command.title);
  }

  @Apply(LineAdded)
  onLine(state: NotebookState, event: LineAdded): void {
    state.lines.push(event.text);
  }

  @Apply(NotebookRenamed)
  onRenamed(state: NotebookState, event: NotebookRenamed): void {
    state.title = event.title;
  }
}
