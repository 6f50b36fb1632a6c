import { Inject, Injectable, Logger } from '@nestjs/common';
import { errorMessage } from '../../errors/error-message.js';
import { EventSourcingRegistry } from '../../discovery/event-sourcing-registry.js';
import type { SubscriberDefinition } from '../../discovery/subscriber-definition.js';
import { partitionCheckpoints } from '../../discovery/subscriber-partitions.js';
import { copyTableName, tableNames } from '../../discovery/read-model-table-names.js';
import { FailedPreconditionError, NotFoundError } from '../../errors/index.js';
import { EventProcessor } from '../../processing/event-processor.js';
import type { SubscriptionRunner } from '../../processing/subscription-runner.js';
import { CHECKPOINT_STORE, type CheckpointStore } from '../../store/checkpoint-store.js';
import { EVENT_STORE, type EventStore } from '../../store/event-store.js';
import { READ_MODEL_TABLES, type ReadModelTables } from '../../store/read-model-tables.js';
import { copyCheckpoint, leftoverCopies, newCopyId, PREVIOUS_COPY } from './copy-names.js';
import { exchange, promote } from './read-model-switch.js';

/** Where a blue/green rebuild is: its copy has read up to `position`; it switches once past `target`. */
export interface BlueGreenProgress {
  projector: string;
  /** The copy's id (its tables are `<table>__<copy>`). */
  copy: string;
  phase: 'building' | 'switching';
  position: number;
  /** The store's head when the build began. */
  target: number;
  /** The store's head now: how far the copy is from the live tables. */
  head: number;
  startedAt: string;
}

export interface BlueGreenSummary {
  projector: string;
  copy: string;
  /** The checkpoint the new tables went live at. */
  position: number;
  durationMs: number;
}

/** How the last rebuild of a projector in this process ended. */
export interface BlueGreenOutcome {
  projector: string;
  outcome: 'switched' | 'failed';
  /** The switched copy's checkpoint, or what failed. */
  position?: number;
  error?: string;
  at: string;
}

const PROGRESS_INTERVAL_MS = 100;
/** How close to the head the copy comes before the live subscription pauses for the switch. */
const SWITCH_MARGIN = 100;

/**
 * Rebuilds a projector without taking its read model away: a second subscription of the projector,
 * from position 0, writes a copy of its tables (created by its `createTables`) while the live ones
 * keep serving and keep being projected; once the copy has caught up, one transaction renames the
 * copy's tables in and the live ones aside (the way back, `switchBack`) and hands the copy's
 * checkpoint to the live subscription. Readers see the old tables or the new ones, never neither.
 */
@Injectable()
export class BlueGreenRebuilder {
  private readonly logger = new Logger('BlueGreenRebuild');
  private readonly builds = new Map<string, BlueGreenProgress>();
  private readonly outcomes = new Map<string, BlueGreenOutcome>();

  constructor(
    private readonly registry: EventSourcingRegistry,
    private readonly processor: EventProcessor,
    @Inject(CHECKPOINT_STORE) private readonly checkpoints: CheckpointStore,
    @Inject(READ_MODEL_TABLES) private readonly tables: ReadModelTables | null,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  /** The builds under way in this process. */
  progress(): BlueGreenProgress[] {
    return [...this.builds.values()].map((build) => ({ ...build }));
  }

  /** How the last rebuild of each projector in this process ended. */
  lastOutcomes(): BlueGreenOutcome[] {
    return [...this.outcomes.values()];
  }

  /**
   * Starts a rebuild in the background (the console's way), after the checks `rebuild` makes, so a
   * refusal is the caller's answer; its end is logged and kept for `lastOutcomes`.
   */
  start(name: string, principalId?: string): BlueGreenProgress {
    this.check(name);
    const by = principalId === undefined ? '' : ` by ${principalId}`;
    this.logger.log(`blue/green rebuild of '${name}' started${by}`);
    void this.rebuild(name).then(
      (summary) => this.ended({ projector: name, outcome: 'switched', position: summary.position, at: new Date().toISOString() }),
      (error: unknown) => this.ended({ projector: name, outcome: 'failed', error: errorMessage(error), at: new Date().toISOString() }),
    );
    return { ...this.builds.get(name)! };
  }

  /** True when the projector has a previous copy to switch back to: its checkpoint and all its tables. */
  async hasPrevious(name: string): Promise<boolean> {
    const declared = this.registry.subscribers.get(name)?.options.tables;
    const tables = this.tables;
    if (!declared || !tables || !(await this.checkpoints.loadAll()).has(copyCheckpoint(name, PREVIOUS_COPY))) return false;
    const previous = declared.map((table) => copyTableName(table, PREVIOUS_COPY));
    return (await this.checkpoints.run((tx) => tables.missing(tx, previous))).length === 0;
  }

  /** Builds a new copy of the projector's tables and switches to it once it has caught up. */
  async rebuild(name: string, onProgress: (progress: BlueGreenProgress) => void = () => undefined): Promise<BlueGreenSummary> {
    const { projector, tables } = this.check(name);
    const copy = newCopyId();
    const started = Date.now();
    const build: BlueGreenProgress = { projector: name, copy, phase: 'building', position: 0, target: 0, head: 0, startedAt: new Date(started).toISOString() };
    this.builds.set(name, build);
    let runner: SubscriptionRunner | undefined;
    try {
      await this.prepare(projector, tables, copy);
      runner = await this.processor.runCopy(projector, { checkpoint: copyCheckpoint(name, copy), table: tableNames(projector, copy) });
      build.target = await this.store.headPosition();
      await this.follow(build, runner, onProgress, () => build.position >= build.target);
      // Caught up with what was there; now close to what came since, so the live pause is short.
      await this.follow(build, runner, onProgress, () => build.head - build.position <= SWITCH_MARGIN);
      build.phase = 'switching';
      const position = await this.switchTo(projector, tables, copy, runner, build, onProgress);
      return { projector: name, copy, position, durationMs: Date.now() - started };
    } catch (error) {
      await runner?.stop();
      await this.discard(projector, tables, copy).catch(() => undefined);
      throw error;
    } finally {
      this.builds.delete(name);
    }
  }

  /** Puts the previous copy back live, and the current tables aside (switching back again undoes it). */
  async switchBack(name: string, principalId?: string): Promise<{ projector: string; position: number }> {
    const { projector, tables } = this.rebuildable(name);
    if (this.builds.has(name)) throw new FailedPreconditionError(`projector '${name}' is being rebuilt; switch back once it has switched`);
    if (!(await this.hasPrevious(name))) throw new NotFoundError(`projector '${name}' has no previous copy to switch back to (none was switched away by a blue/green rebuild)`);
    const resume = await this.processor.pause(name);
    try {
      await this.checkpoints.run((tx) => exchange(tables, tx, name, projector.options.tables!, PREVIOUS_COPY));
    } finally {
      await resume();
    }
    this.logger.log(`'${name}' switched back to its previous copy${principalId === undefined ? '' : ` by ${principalId}`}`);
    return { projector: name, position: await this.checkpoints.load(name) };
  }

  /** Refuses a projector that cannot be rebuilt blue/green here and now, saying why. */
  check(name: string): { projector: SubscriberDefinition; tables: ReadModelTables } {
    const found = this.rebuildable(name);
    if (this.builds.has(name)) throw new FailedPreconditionError(`projector '${name}' is already being rebuilt; wait for it to switch`);
    return found;
  }

  private ended(outcome: BlueGreenOutcome): void {
    this.outcomes.set(outcome.projector, outcome);
    if (outcome.outcome === 'switched') this.logger.log(`blue/green rebuild of '${outcome.projector}' switched at position ${outcome.position}`);
    else this.logger.error(`blue/green rebuild of '${outcome.projector}' failed: ${outcome.error}`);
  }

  private rebuildable(name: string): { projector: SubscriberDefinition; tables: ReadModelTables } {
    const projector = this.registry.projector(name);
    if (!projector.options.tables) {
      throw new FailedPreconditionError(`projector '${name}' declares no tables: add { tables: [...] } and createTables(tx, table) to rebuild it blue/green`);
    }
    if (!this.tables) throw new FailedPreconditionError('this store adapter cannot copy and switch read-model tables: blue/green rebuilds need the TypeORM adapter');
    if (this.processor.sharedAmongInstances) {
      throw new FailedPreconditionError(`projector '${name}' is read in partitions (processing.scaleOut): its partitions' checkpoints cannot be switched as one`);
    }
    return { projector, tables: this.tables };
  }

  /** Drops what earlier unfinished builds left, then creates the copy's tables and its checkpoint at 0. */
  private async prepare(projector: SubscriberDefinition, tables: ReadModelTables, copy: string): Promise<void> {
    const checkpoints = [...(await this.checkpoints.loadAll()).keys()];
    // Another process (the app, when the CLI rebuilds) may run it split in partitions.
    if (partitionCheckpoints(projector.name, checkpoints).length > 0) {
      throw new FailedPreconditionError(`projector '${projector.name}' is read in partitions (processing.scaleOut): its partitions' checkpoints cannot be switched as one`);
    }
    for (const leftover of leftoverCopies(projector.name, checkpoints)) await this.discard(projector, tables, leftover);
    await this.checkpoints.save(copyCheckpoint(projector.name, copy), 0);
    await this.checkpoints.run(async (tx) => {
      await tables.drop(tx, projector.options.tables!.map((table) => copyTableName(table, copy)));
      await projector.createTables!(tx, tableNames(projector, copy));
    });
  }

  private discard(projector: SubscriberDefinition, tables: ReadModelTables, copy: string): Promise<void> {
    return this.checkpoints.run(async (tx) => {
      await tables.drop(tx, projector.options.tables!.map((table) => copyTableName(table, copy)));
      await this.checkpoints.resetCheckpoint(tx, copyCheckpoint(projector.name, copy));
    });
  }

  /**
   * With the live subscription paused here, lets the copy pass the live checkpoint, stops it (which
   * stores its position) and switches in one transaction; the live subscription resumes from the
   * copy's checkpoint. Where the live projector runs in another process, its next commit finds its
   * checkpoint moved and starts again from the new one.
   */
  private async switchTo(
    projector: SubscriberDefinition,
    tables: ReadModelTables,
    copy: string,
    runner: SubscriptionRunner,
    build: BlueGreenProgress,
    onProgress: (progress: BlueGreenProgress) => void,
  ): Promise<number> {
    const resume = await this.processor.pause(projector.name);
    try {
      const live = await this.checkpoints.load(projector.name);
      await this.follow(build, runner, onProgress, () => build.position >= live);
      await runner.stop();
      await this.checkpoints.run((tx) => promote(tables, tx, projector.name, projector.options.tables!, copy));
    } finally {
      await resume();
    }
    return this.checkpoints.load(projector.name);
  }

  private async follow(build: BlueGreenProgress, runner: SubscriptionRunner, onProgress: (progress: BlueGreenProgress) => void, done: () => boolean): Promise<void> {
    for (;;) {
      build.position = runner.currentPosition;
      build.head = await this.store.headPosition();
      onProgress({ ...build });
      if (done()) return;
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_INTERVAL_MS));
    }
  }
}
