import { Injectable } from '@nestjs/common';

type ChangeListener = (projector: string, keys: ReadonlySet<string>) => void;

/**
 * The keys projectors said they changed (`ctx.changed(key)`), told to listeners once the
 * transaction that changed them committed; live queries listen. In-process only: another instance's
 * changes arrive as its checkpoint wake-ups, without keys.
 */
@Injectable()
export class ReadModelChanges {
  private readonly listeners = new Set<ChangeListener>();

  /** After a projector's commit: the keys its handler named for one event (none: "something changed"). */
  committed(projector: string, keys: ReadonlySet<string>): void {
    for (const listener of this.listeners) listener(projector, keys);
  }

  /** `listener` must not throw. */
  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
