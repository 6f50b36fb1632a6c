import type { Variant } from '../cards/index.js';

/** The bot-turns flow follows this hand, letting bots move `botDelayMs` after their turn comes. */
export class BotTurnsStarted {
  constructor(
    readonly handId: string,
    readonly variant: Variant,
    readonly botDelayMs: number,
  ) {}
}

export class BotTurnsEnded {}
