import { randomUUID } from 'node:crypto';
import type { DeadLetter, DeadLetterQuery, DeadLetterStatus, DeadLetterStore, NewDeadLetter } from '../dead-letter-store.js';
import { jsonCopy } from './json-copy.js';

/** Dead letters in memory, listed oldest first. */
export class InMemoryDeadLetterStore implements DeadLetterStore {
  private readonly letters = new Map<string, DeadLetter>();

  async add(entry: NewDeadLetter): Promise<DeadLetter> {
    const now = new Date();
    const letter: DeadLetter = { ...jsonCopy(entry), id: randomUUID(), status: 'pending', createdAt: now, updatedAt: now };
    this.letters.set(letter.id, letter);
    return copy(letter);
  }

  async list(query: DeadLetterQuery = {}): Promise<DeadLetter[]> {
    const { status, kind, subscriber, aggregateType, aggregateId, after } = query;
    const listed = [...this.letters.values()]
      .filter((l) => (status === undefined || l.status === status) && (kind === undefined || l.kind === kind))
      .filter((l) => subscriber === undefined || l.subscriber === subscriber)
      .filter((l) => (aggregateType === undefined || l.aggregateType === aggregateType) && (aggregateId === undefined || l.aggregateId === aggregateId))
      .filter((l) => after === undefined || listOrder(l, after) > 0)
      .sort(listOrder);
    return listed.slice(0, query.limit ?? listed.length).map(copy);
  }

  async get(id: string): Promise<DeadLetter | null> {
    const letter = this.letters.get(id);
    return letter ? copy(letter) : null;
  }

  async resolve(id: string, status: Exclude<DeadLetterStatus, 'pending'>, reason?: string): Promise<boolean> {
    const letter = this.letters.get(id);
    if (letter?.status !== 'pending') return false;
    Object.assign(letter, { status, reason: reason ?? letter.reason, updatedAt: new Date() });
    return true;
  }
}

function copy(letter: DeadLetter): DeadLetter {
  return { ...jsonCopy(letter), createdAt: new Date(letter.createdAt.getTime()), updatedAt: new Date(letter.updatedAt.getTime()) };
}

/** Oldest first, then by id: the order every adapter lists in. */
function listOrder(a: Pick<DeadLetter, 'createdAt' | 'id'>, b: Pick<DeadLetter, 'createdAt' | 'id'>): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
