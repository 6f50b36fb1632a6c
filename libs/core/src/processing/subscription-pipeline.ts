import { Logger } from '@nestjs/common';
import type { StoredEvent } from '../model/event-envelope.js';
import type { AggregateDispatcher } from '../scheduling/index.js';
import type { CheckpointStore } from '../store/checkpoint-store.js';
import type { EventStore } from '../store/event-store.js';
import type { BatchHandler, HeldRetry } from './batch-handler.js';
import { CheckpointMovedError, isFinalDeliveryError } from './delivery-errors.js';
import type { EventDeadLetters } from './event-dead-letters.js';
import type { HeldEventStatus, HeldKeyStatus } from './held-event-status.js';
import { HeldKeys, type HeldQueue } from './held-keys.js';
import { AfterCommit } from './after-commit.js';
import { reactInLanes } from './lane-reactions.js';
import type { Reactor } from './reactor.js';
import type { RetryPolicy } from './retry-policy.js';
import { errorMessage } from '../errors/error-message.js';

export interface PipelineParts {
  /** The checkpoint (of the subscriber, or of one of its partitions) this pipeline moves. */
  checkpoint: string;
  reactor: Reactor;
  /** The commit: moves the checkpoint by compare-and-set and records held events, in one transaction. */
  checkpoints: CheckpointStore;
  store: EventStore;
  deadLetters: EventDeadLetters;
  /** The lanes reactions outside the commit run in (a process manager's timers share them). */
  lanes: AggregateDispatcher;
  laneName: string;
  policy: RetryPolicy;
}

/**
 * The one way every subscriber handles what its subscription reads: per-key lanes -> react ->
 * commit. The commit moves the checkpoint by compare-and-set, so two instances never both commit a
 * batch. An event whose reaction fails does not stop the subscriber: it is held (recorded in the
 * commit that moves the checkpoint past it), its key's later events are held behind it, and it is
 * retried with backoff between batches; when its attempts run out it goes to the dead-letter table.
 * Other keys go on, so each key's events are handled in order and a failing key delays the others by
 * one batch at most.
 *
 * A reactor that writes through the commit's transaction (a projector) has its effects committed
 * exactly once with the checkpoint; one that acts before the commit (sagas, process managers) is
 * at-least-once, and its effects are idempotent (ids derived from the event).
 */
export class SubscriptionPipeline implements BatchHandler, HeldEventStatus {
  private readonly logger: Logger;
  private readonly held: HeldKeys;
  private readonly reactor: Reactor;

  constructor(private readonly parts: PipelineParts) {
    this.reactor = parts.reactor;
    this.logger = new Logger(`Subscriber:${parts.checkpoint}`);
    this.held = new HeldKeys(parts.policy);
  }

  async handle(events: StoredEvent[], from: number, to: number): Promise<boolean> {
    const behind: StoredEvent[] = [];
    const free: StoredEvent[] = [];
    for (const event of events) (this.held.isHeld(this.reactor.keyOf(event)) ? behind : free).push(event);
    try {
      if (this.reactor.inTransaction) {
        await this.commitWith(async (tx, afterCommit) => {
          // Reacted first: a reaction that throws leaves nothing held (the in-memory store cannot roll back).
          for (const event of free) await this.reactor.react(event, tx, afterCommit);
          await this.commit(tx, behind, from, to);
        });
        this.heldBehind(behind);
        return true;
      }
      const failures = await reactInLanes(free, this.reactor, this.parts.lanes, this.parts.laneName);
      const held = [...behind, ...failures.flatMap((failure) => [failure.event, ...failure.behind])].sort((a, b) => a.position - b.position);
      await this.commitAlone(held, from, to);
      this.heldBehind(behind);
      for (const failure of failures) this.failedFirst(failure.event, failure.error, failure.behind);
      return true;
    } catch (error) {
      if (error instanceof CheckpointMovedError) return false;
      if (isFinalDeliveryError(error) || !this.reactor.inTransaction) throw error;
      return this.oneByOne(events, from, to);
    }
  }

  /** One more delivery (a dead letter's retry), in its key's lane like any other; it moves no checkpoint. */
  redeliver(event: StoredEvent): Promise<void> {
    return this.reactThenCommit(this.reactor.keyOf(event), event);
  }

  async restore(): Promise<void> {
    this.reactor.restart?.();
    const held = await this.parts.checkpoints.loadHeld(this.parts.checkpoint);
    const keyed: Array<{ key: string; position: number }> = [];
    for (const record of held) {
      const key = this.reactor.keyOfHeld(record) ?? (await this.keyAt(record.position));
      if (key !== undefined) keyed.push({ key, position: record.position });
    }
    this.held.replace(keyed);
  }

  holding(): boolean {
    return this.held.holdsAny;
  }

  async retryHeld(): Promise<HeldRetry> {
    let settled = 0;
    for (let due = this.held.due(Date.now()); due.length > 0; due = this.held.due(Date.now())) {
      for (const queue of due) {
        const outcome = await this.retryOldest(queue);
        if (outcome === 'moved') return { settled, nextDueAt: this.held.nextDueAt };
        if (outcome === 'settled') settled++;
      }
    }
    return { settled, nextDueAt: this.held.nextDueAt };
  }

  /** One event spoiled a transactional batch: react one at a time, holding the ones that fail. */
  private async oneByOne(events: StoredEvent[], from: number, to: number): Promise<boolean> {
    let at = from;
    try {
      for (const event of events) {
        const key = this.reactor.keyOf(event);
        if (this.held.isHeld(key)) {
          await this.parts.checkpoints.run((tx) => this.commit(tx, [event], at, event.position));
          this.held.append(key, event.position);
        } else {
          try {
            await this.commitWith(async (tx, afterCommit) => {
              await this.reactor.react(event, tx, afterCommit);
              await this.commit(tx, [], at, event.position);
            });
          } catch (error) {
            if (isFinalDeliveryError(error)) throw error;
            await this.parts.checkpoints.run((tx) => this.commit(tx, [event], at, event.position));
            this.failedFirst(event, error, []);
          }
        }
        at = event.position;
      }
      await this.parts.checkpoints.run((tx) => this.commit(tx, [], at, to));
      return true;
    } catch (error) {
      if (error instanceof CheckpointMovedError) return false;
      throw error;
    }
  }

  /**
   * Tries the oldest held event of a key once: settled when handled, or dead-lettered because its
   * attempts are used up; moved when another instance released it (the held events are reloaded).
   */
  private async retryOldest(queue: HeldQueue): Promise<'settled' | 'failed' | 'moved'> {
    const position = queue.positions[0];
    const event = await this.eventAt(position);
    try {
      if (event) {
        await this.reactThenCommit(queue.key, event, (tx) => this.release(tx, position));
        this.held.shift(queue);
        return 'settled';
      }
    } catch (error) {
      if (error instanceof CheckpointMovedError) return this.reloaded();
      if (isFinalDeliveryError(error)) throw error;
      if (!this.held.failed(queue, Date.now(), error)) return 'failed';
      await this.parts.deadLetters.add(event!, queue.failures, error);
    }
    try {
      await this.parts.checkpoints.run((tx) => this.release(tx, position));
    } catch (error) {
      if (error instanceof CheckpointMovedError) return this.reloaded();
      throw error;
    }
    this.held.shift(queue);
    return 'settled';
  }

  heldKeys(): HeldKeyStatus[] {
    return this.held.snapshot().map(({ key, positions, failures, lastError, dueAt }) => ({ key, positions, attempts: failures, lastError, nextAttemptAt: dueAt }));
  }

  retryNow(position: number): boolean {
    return this.held.dueNow(position);
  }

  /** One transaction of reactions and their commit; what the reactions asked for after it runs once it committed. */
  private async commitWith(work: (tx: unknown, afterCommit: AfterCommit) => Promise<void>): Promise<void> {
    const afterCommit = new AfterCommit();
    await this.parts.checkpoints.run((tx) => work(tx, afterCommit));
    afterCommit.run();
  }

  /** Reacts to one event (in the commit's transaction, or in its key's lane before it), then runs `commit` if given. */
  private async reactThenCommit(key: string, event: StoredEvent, commit?: (tx: unknown) => Promise<void>): Promise<void> {
    if (this.reactor.inTransaction) {
      await this.commitWith(async (tx, afterCommit) => {
        await this.reactor.react(event, tx, afterCommit);
        await commit?.(tx);
      });
      return;
    }
    await this.parts.lanes.dispatch(this.parts.laneName, key, () => this.reactor.react(event, undefined));
    if (commit) await this.parts.checkpoints.run(commit);
  }

  private heldBehind(events: StoredEvent[]): void {
    for (const event of events) this.held.append(this.reactor.keyOf(event), event.position);
  }

  private failedFirst(event: StoredEvent, error: unknown, behind: StoredEvent[]): void {
    this.logger.warn(`${event.type} at position ${event.position} failed (${errorMessage(error)}); held, retried with backoff`);
    const key = this.reactor.keyOf(event);
    this.held.failedFirst(key, event.position, Date.now(), error);
    for (const later of behind) this.held.append(key, later.position);
  }

  private async reloaded(): Promise<'moved'> {
    await this.restore();
    return 'moved';
  }

  private async eventAt(position: number): Promise<StoredEvent | undefined> {
    const [event] = await this.parts.store.readAll({ afterPosition: position - 1, limit: 1 });
    return event?.position === position ? event : undefined;
  }

  private async keyAt(position: number): Promise<string | undefined> {
    const event = await this.eventAt(position);
    return event && this.reactor.keyOf(event);
  }

  /** A commit of no reaction's writes (sagas, process managers): with nothing held, the checkpoint moves in one write. */
  private async commitAlone(held: StoredEvent[], from: number, to: number): Promise<void> {
    if (held.length > 0) return this.parts.checkpoints.run((tx) => this.commit(tx, held, from, to));
    await this.moveCheckpoint(from, to, () => this.parts.checkpoints.moveCheckpoint(this.parts.checkpoint, from, to));
  }

  /** Records `held` (in position order) and moves the checkpoint from `from` to `to`, in the transaction `tx`. */
  private async commit(tx: unknown, held: StoredEvent[], from: number, to: number): Promise<void> {
    for (const { position, aggregateType, aggregateId } of held) {
      await this.parts.checkpoints.holdEvent(tx, { subscriber: this.parts.checkpoint, position, aggregateType, aggregateId });
    }
    await this.moveCheckpoint(from, to, () => this.parts.checkpoints.advanceCheckpoint(tx, this.parts.checkpoint, from, to));
  }

  /** Moves the checkpoint unless `from` is `to`; another owner having moved it first is a CheckpointMovedError. */
  private async moveCheckpoint(from: number, to: number, move: () => Promise<boolean>): Promise<void> {
    if (from !== to && !(await move())) throw new CheckpointMovedError(this.parts.checkpoint);
  }

  private async release(tx: unknown, position: number): Promise<void> {
    if (!(await this.parts.checkpoints.releaseEvent(tx, this.parts.checkpoint, position))) throw new CheckpointMovedError(this.parts.checkpoint);
  }
}
