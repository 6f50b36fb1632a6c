import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { StoreOptions } from '@nest-es/typeorm';
import { PokerClient } from '../../apps/poker/src/client/poker-client.js';
import type { BettingAction } from '../../apps/poker/src/hand/index.js';
import type { TableView } from '../../apps/poker/src/read-models/index.js';
import type { PokerModuleOptions } from '../../apps/poker/src/poker.module.js';
import { createPokerApp } from './poker-app.js';

export interface PokerServer {
  app: NestFastifyApplication;
  client: PokerClient;
}

/** The poker app listening on a free port, with fast polling, and a client for its HTTP API. */
export async function startPokerServer(store: StoreOptions, options: Omit<PokerModuleOptions, 'store'> = {}): Promise<PokerServer> {
  const app = await createPokerApp(store, { processing: { pollIntervalMs: 50, timerPollIntervalMs: 50 }, ...options });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, client: new PokerClient(`http://127.0.0.1:${port}`) };
}

/** Polls `read` until `accept` holds; fails with the last value seen when the bound runs out. */
export async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${timeoutMs} ms; last seen ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export type Hand = NonNullable<TableView['hand']>;
export type Move = { action: BettingAction; amount?: number } | 'wait';

/**
 * Plays the table's running hand to its end with human players: `decide` picks the move of the
 * player on turn; in the draw everyone still in stands pat, in turn; at the showdown the player on
 * turn (one whose hand cannot win yet) shows, or mucks if `showdown` says so. Returns the table
 * after the hand.
 */
export async function playOut(
  client: PokerClient,
  tableId: string,
  decide: (hand: Hand, view: TableView) => Move,
  showdown: (hand: Hand, view: TableView) => 'show' | 'muck' = () => 'show',
): Promise<TableView> {
  for (let step = 0; step < 200; step++) {
    const view = await client.table(tableId);
    const hand = view.hand!;
    if (view.status === 'waiting' && hand.phase === 'COMPLETE') return view;
    if (hand.phase === 'SHOWDOWN' && hand.actionOn) {
      const muck = showdown(hand, view) === 'muck';
      await client.command('hand', hand.handId, 'RevealCards', { playerId: hand.actionOn, muck }, { 'Sync-Mode': 'cascade' });
      continue;
    }
    const toDraw = hand.phase === 'DRAW' && !hand.actionOn ? hand.players.filter((p) => !p.folded && p.drew === null) : [];
    if (toDraw.length > 0) {
      for (const player of toDraw) await client.draw(tableId, player.playerId, []);
      continue;
    }
    const move = hand.actionOn ? decide(hand, view) : 'wait';
    if (move === 'wait') await new Promise((resolve) => setTimeout(resolve, 25));
    else await client.act(tableId, hand.actionOn!, move.action, move.amount);
  }
  throw new Error(`the hand at ${tableId} did not end in 200 steps`);
}

/** Check when nothing is to call, else call: every hand goes to the showdown. */
export const checkOrCall = (hand: Hand): Move => ({ action: hand.amountToCall > 0 ? 'CALL' : 'CHECK' });

/** Everyone folds to the last player: the hand ends without a contest. */
export const foldToOne = (hand: Hand): Move => {
  const left = hand.players.filter((p) => !p.folded).length;
  return left > 1 ? { action: 'FOLD' } : { action: 'CHECK' };
};
