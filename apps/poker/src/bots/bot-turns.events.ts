import type { Variant } from '../cards/index.js';

/** The bot-turns flow follows this hand, letting its bots move `botDelayMs` after their turn comes. */
export class BotTurnsStarted {
  constructor(
    readonly handId: string,
    readonly variant: Variant,
    readonly botDelayMs: number,
    /** The hand's bots, as it started (players are seated for the whole hand); absent from events stored before they were. */
    readonly bots?: string[],
  ) {}
}

export class BotTurnsEnded {}
