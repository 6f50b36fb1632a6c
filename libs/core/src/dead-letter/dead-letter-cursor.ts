import { InvalidArgumentError } from '../errors/index.js';
import type { DeadLetter } from '../store/dead-letter-store.js';

type Position = Pick<DeadLetter, 'createdAt' | 'id'>;

/** The list position of a letter as an opaque string: clients pass it back, they don't read it. */
export function encodeCursor(letter: Position): string {
  return Buffer.from(JSON.stringify([letter.createdAt.getTime(), letter.id])).toString('base64url');
}

export function decodeCursor(cursor: string): Position {
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    position = undefined;
  }
  if (
    Array.isArray(position) && position.length === 2 &&
    Number.isSafeInteger(position[0]) && position[0] >= 0 && position[0] <= MAX_TIME &&
    typeof position[1] === 'string' && /^[\w-]{1,200}$/.test(position[1])
  ) {
    return { createdAt: new Date(position[0]), id: position[1] };
  }
  throw new InvalidArgumentError('cursor is not one this server handed out; pass back a nextCursor unchanged');
}

/** 9999-12-31T23:59:59.999Z: past any letter's time, and within every database's timestamp range. */
const MAX_TIME = 253402300799999;
