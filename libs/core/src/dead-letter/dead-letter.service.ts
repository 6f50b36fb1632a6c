import { Inject, Injectable, Logger } from '@nestjs/common';
import { describe, validateId } from '../command/command-validation.js';
import { unstorableStringReason } from '../store/storable-value.js';
import { FailedPreconditionError, InvalidArgumentError, NotFoundError } from '../errors/index.js';
import { DEAD_LETTER_STORE, type DeadLetter, type DeadLetterKind, type DeadLetterStatus, type DeadLetterStore } from '../store/dead-letter-store.js';
import { CommandDeadLetterRetrier } from './command-retrier.js';
import { decodeCursor, encodeCursor } from './dead-letter-cursor.js';

/**
 * Re-runs one dead letter. `body` is what the reviewer sent with the retry (for commands:
 * `{expectedSequence}`). Resolve with anything (it is handed back to the caller) once the message
 * is handled for good; throw to refuse: the letter stays pending and the caller gets the error.
 */
export type DeadLetterRetrier = (letter: DeadLetter, body: Record<string, unknown>) => Promise<unknown>;

export interface DeadLetterFilter {
  status?: DeadLetterStatus;
  kind?: DeadLetterKind;
}

export interface DeadLetterPage {
  deadLetters: DeadLetter[];
  /** Pass it back as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
}

export interface RetriedDeadLetter {
  deadLetter: DeadLetter;
  /** What the kind's retrier resolved with (for commands: the CommandResult). */
  result: unknown;
}

// Records keyed by the union types, so a kind or status added to the store port must be added here.
const STATUSES = Object.keys({ pending: true, retried: true, discarded: true } satisfies Record<DeadLetterStatus, true>);
const KINDS = Object.keys({ command: true, event: true } satisfies Record<DeadLetterKind, true>);

/**
 * Review of the dead-letter table (commands parked by MANUAL, events a subscriber kept failing on):
 * list, get, retry, discard.
 *
 * Retrying is pluggable per kind. Commands (MANUAL merge) go to CommandDeadLetterRetrier; a producer
 * of another kind registers its retrier once, when it is constructed (the event processing does so
 * for 'event' in processing/event-dead-letter-retrier.ts):
 *
 *   deadLetters.registerRetrier('event', (letter, body) => this.redeliver(letter));
 */
@Injectable()
export class DeadLetterService {
  private readonly logger = new Logger('DeadLetterService');
  private readonly retriers = new Map<DeadLetterKind, DeadLetterRetrier>();

  constructor(
    @Inject(DEAD_LETTER_STORE) private readonly store: DeadLetterStore,
    commands: CommandDeadLetterRetrier,
  ) {
    this.registerRetrier('command', (letter, body) => commands.retry(letter, body));
  }

  /** One retrier per kind; a second registration for a kind is a wiring mistake and throws. */
  registerRetrier(kind: DeadLetterKind, retrier: DeadLetterRetrier): void {
    if (this.retriers.has(kind)) throw new Error(`dead letters of kind '${kind}' already have a retrier`);
    this.retriers.set(kind, retrier);
  }

  /** Every letter the filter matches, oldest first. */
  list(filter: DeadLetterFilter = {}): Promise<DeadLetter[]> {
    return this.store.list(this.checked(filter));
  }

  /** One page of `list`: `limit` letters after `cursor` (the previous page's `nextCursor`). */
  async page(filter: DeadLetterFilter, limit: number, cursor?: string): Promise<DeadLetterPage> {
    const letters = await this.store.list({ ...this.checked(filter), after: cursor === undefined ? undefined : decodeCursor(cursor), limit: limit + 1 });
    const deadLetters = letters.slice(0, limit);
    const last = deadLetters.at(-1);
    return letters.length > limit && last ? { deadLetters, nextCursor: encodeCursor(last) } : { deadLetters };
  }

  private checked(filter: DeadLetterFilter): DeadLetterFilter {
    for (const [name, value, allowed] of [['status', filter.status, STATUSES], ['kind', filter.kind, KINDS]] as const) {
      if (value !== undefined && !allowed.includes(value)) {
        throw new InvalidArgumentError(`${name} must be one of ${allowed.join(', ')}, got ${describe(value)}`);
      }
    }
    return { status: filter.status, kind: filter.kind };
  }

  async get(id: string): Promise<DeadLetter> {
    const letter = await this.store.get(validateId('dead letter id', id));
    if (!letter) throw new NotFoundError(`no dead letter with id '${id}'`);
    return letter;
  }

  /** Marks the letter `retried` only once its retrier succeeded; a refusal leaves it pending and reaches the caller. */
  async retry(id: string, body: Record<string, unknown> = {}): Promise<RetriedDeadLetter> {
    const letter = await this.pending(id);
    const retrier = this.retriers.get(letter.kind);
    if (!retrier) throw new FailedPreconditionError(`no retrier is registered for dead letters of kind '${letter.kind}'`);
    const result = await retrier(letter, body);
    if (!(await this.store.resolve(id, 'retried'))) {
      // Resolved meanwhile by another reviewer: a second retry of a command is harmless (its command id
      // was stored once), but a discard that won the race no longer describes what happened.
      this.logger.warn(`dead letter ${id} was retried successfully but had been resolved meanwhile`);
    }
    return { deadLetter: await this.get(id), result };
  }

  async discard(id: string, reason?: string): Promise<DeadLetter> {
    const unstorable = reason === undefined ? null : unstorableStringReason(reason);
    if (unstorable !== null) throw new InvalidArgumentError(`reason ${unstorable}`);
    await this.pending(id);
    // Lost a race to another reviewer: answer as if it had been resolved before we looked.
    if (!(await this.store.resolve(id, 'discarded', reason))) await this.pending(id);
    return this.get(id);
  }

  private async pending(id: string): Promise<DeadLetter> {
    const letter = await this.get(id);
    if (letter.status !== 'pending') {
      throw new FailedPreconditionError(`dead letter ${id} is already ${letter.status}`, { deadLetterId: id, status: letter.status });
    }
    return letter;
  }
}
