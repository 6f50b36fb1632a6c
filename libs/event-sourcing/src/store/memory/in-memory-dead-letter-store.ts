import { randomUUID } from 'node:crypto';
import type { DeadLetter, DeadLetterKind, DeadLetterStatus, DeadLetterStore, NewDeadLetter } from '../dead-letter-store.js';
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

  async list(filter: { status?: DeadLetterStatus; kind?: DeadLetterKind; subscriber?: string } = {}): Promise<DeadLetter[]> {
    return [...this.letters.values()]
      .filter((l) => (filter.status === undefined || l.status === filter.status) && (filter.kind === undefined || l.kind === filter.kind))
      .filter((l) => filter.subscriber === undefined || l.subscriber === filter.subscriber)
      .map(copy);
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
