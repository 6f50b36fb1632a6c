import { LruCache } from '../command/lru-cache.js';

/** How many declined starts are remembered: beyond it the least recently used is forgotten (its next event reads the instance's stream again). */
const MAX_REMEMBERED = 10_000;

/**
 * The process instances whose starting event this process decided without starting them: the
 * instance's stream was read empty and the step recorded no event. Their later events need no read
 * to tell that the instance has not started elsewhere, as long as the subscription has delivered every
 * event since (it forgets them all when it starts again from its stored checkpoint).
 */
export class DeclinedStarts {
  private readonly keys = new LruCache<string, true>(MAX_REMEMBERED);

  has(key: string): boolean {
    return this.keys.get(key) !== undefined;
  }

  /** After a starting event's step on an empty instance: `declined` when it recorded nothing. */
  note(key: string, declined: boolean): void {
    if (declined) this.keys.set(key, true);
    else this.keys.delete(key);
  }

  clear(): void {
    this.keys.clear();
  }
}
