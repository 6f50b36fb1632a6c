import { Inject, Injectable } from '@nestjs/common';
import { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import { tableNames } from '../discovery/read-model-table-names.js';
import type { SubscriberDefinition } from '../discovery/subscriber-definition.js';
import { partitionCheckpoints } from '../discovery/subscriber-partitions.js';
import { FailedPreconditionError, InvalidArgumentError, NotFoundError } from '../errors/index.js';
import { EVENT_STORE, type EventStore } from '../store/event-store.js';
import { EventProcessor } from '../processing/event-processor.js';
import { CHECKPOINT_STORE, type CheckpointStore } from '../store/checkpoint-store.js';
import { READ_MODEL_TABLES, type ReadModelTables } from '../store/read-model-tables.js';

export interface ProjectionRebuildProgress {
  position: number;
  /** The store's head when the rebuild began: the rebuild is done when the projector passes it. */
  target: number;
}

export interface ProjectionRebuildSummary {
  projector: string;
  target: number;
  durationMs: number;
}

const PROGRESS_INTERVAL_MS = 100;

/**
 * Resets a projector (its `reset(manager)`, or its declared tables made anew, and its checkpoints, in
 * one transaction) and lets its subscription replay from position 0 while commands keep flowing;
 * reports progress until it passed the head the store had when the rebuild began.
 */
@Injectable()
export class ProjectionRebuilder {
  constructor(
    private readonly registry: EventSourcingRegistry,
    private readonly processor: EventProcessor,
    @Inject(CHECKPOINT_STORE) private readonly transactions: CheckpointStore,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODEL_TABLES) private readonly tables: ReadModelTables | null,
  ) {}

  async rebuild(name: string, onProgress: (progress: ProjectionRebuildProgress) => void = () => undefined): Promise<ProjectionRebuildSummary> {
    const projector = this.registry.subscribers.get(name);
    if (!projector) {
      const known = [...this.registry.subscribers.values()].filter((s) => s.kind === 'projector').map((s) => s.name);
      throw new NotFoundError(`unknown projector '${name}'; known: ${known.join(', ') || 'none'}`);
    }
    if (projector.kind !== 'projector') throw new InvalidArgumentError(`'${name}' is a ${projector.kind}; only projectors can be rebuilt`);
    if (this.processor.sharedAmongInstances) {
      throw new InvalidArgumentError(`projector '${name}' is shared among instances (processing.scaleOut): stop the instances and rebuild it from the maintenance CLI, whose application entry passes on the processing options it is given (no scale-out)`);
    }
    if (this.processor.position(name) === undefined) {
      throw new InvalidArgumentError(`projector '${name}' does not run in this process (processing is disabled)`);
    }
    if (!projector.reset && projector.options.tables && !this.tables) {
      throw new FailedPreconditionError(`projector '${name}' has no reset(tx), and this store adapter cannot drop its tables: add a reset(tx) to rebuild it in place`);
    }
    const started = Date.now();
    const resume = await this.processor.pause(name);
    try {
      // Partitions' checkpoints, left by instances that ran it under scale-out: the instances' next
      // partitions start from the rebuilt checkpoint instead of their stale positions.
      const partitions = partitionCheckpoints(name, (await this.transactions.loadAll()).keys());
      await this.transactions.run(async (manager) => {
        await this.clear(projector, manager);
        for (const checkpoint of [name, ...partitions]) await this.transactions.resetCheckpoint(manager, checkpoint);
      });
    } finally {
      await resume();
    }
    const target = await this.store.headPosition();
    for (;;) {
      const position = Math.min(this.processor.position(name) ?? 0, target);
      onProgress({ position, target });
      if (position >= target) break;
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_INTERVAL_MS));
    }
    return { projector: name, target, durationMs: Date.now() - started };
  }

  /** Its `reset(tx)`; for a projector that declares its tables and has none, its tables dropped and created anew. */
  private async clear(projector: SubscriberDefinition, tx: unknown): Promise<void> {
    if (projector.reset) {
      await projector.reset(tx);
      return;
    }
    const declared = projector.options.tables;
    if (!declared) return;
    await this.tables!.drop(tx, declared);
    await projector.createTables!(tx, tableNames(projector));
  }
}
