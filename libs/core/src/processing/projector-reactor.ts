import type { SubscriberDefinition } from '../discovery/subscriber-definition.js';
import { tableNames, type TableName } from '../discovery/read-model-table-names.js';
import type { StoredEvent } from '../model/event-envelope.js';
import type { ReadModelChanges } from '../runtime/read-model-changes.js';
import type { Tracing } from '../runtime/tracing.js';
import type { HeldEvent } from '../store/checkpoint-store.js';
import type { AfterCommit } from './after-commit.js';
import { deliverySpan } from './delivery-span.js';
import { aggregateKey, type Reactor } from './reactor.js';
import { eventContext, type ProjectionContext } from './subscriber-context.js';

/** A projector writes its read model through the commit's transaction: exactly once with its checkpoint. */
export class ProjectorReactor implements Reactor {
  readonly inTransaction = true;

  constructor(
    private readonly subscriber: SubscriberDefinition,
    private readonly tracing: Tracing,
    private readonly changes: ReadModelChanges,
    /** The tables written: the live ones, or a blue/green copy's. */
    private readonly table: TableName = tableNames(subscriber),
  ) {}

  keyOf(event: StoredEvent): string {
    return aggregateKey(event);
  }

  keyOfHeld(held: HeldEvent): string {
    return aggregateKey(held);
  }

  react(event: StoredEvent, tx: unknown, afterCommit?: AfterCommit): Promise<void> {
    let changed: Set<string> | undefined;
    // Only a handler that says it changed something pays for telling it, after the commit.
    const markChanged = (...keys: string[]) => {
      if (!changed) {
        const marked = (changed = new Set());
        afterCommit?.add(() => this.changes.committed(this.subscriber.name, marked));
      }
      for (const key of keys) changed.add(key);
    };
    const ctx: ProjectionContext = { ...eventContext(event), tx, changed: markChanged, table: this.table };
    return deliverySpan(this.tracing, this.subscriber, event, async () => {
      await this.subscriber.handlers.get(event.type)!(event.payload, ctx);
    });
  }
}
