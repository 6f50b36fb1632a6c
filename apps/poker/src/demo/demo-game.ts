import type { PokerClient } from '../client/poker-client.js';
import { finishHandWithBots } from '../client/play-with-bots.js';
import type { Variant } from '../cards/index.js';

export interface DemoOptions {
  hands: number;
  seed: string;
  variant: Variant;
  players: number;
}

export interface DemoOutcome {
  playerIds: string[];
  tableId: string;
  handsPlayed: number;
  chipsBefore: number;
  chipsAfter: number;
}

const NAMES = ['Ada', 'Bo', 'Cy', 'Di', 'Ed', 'Flo'];
const BUY_IN = 500;

/**
 * Bots at one table, all through the HTTP API: register (each gets the starting bankroll), buy in, play `hands` seeded
 * hands (a bot that runs out of chips leaves, is settled and buys in again), then everybody leaves.
 * Returns the chips in all bankrolls before and after: every chip must come back.
 */
export async function playDemo(client: PokerClient, options: DemoOptions, onHand: (hand: number) => void): Promise<DemoOutcome> {
  const run = `${options.seed}-${Date.now().toString(36)}`;
  const playerIds = NAMES.slice(0, options.players).map((name) => `${name.toLowerCase()}-${run}`);
  const tableId = `demo-${run}`;
  for (const [i, id] of playerIds.entries()) await client.registerPlayer(id, NAMES[i], 'AI');
  const chipsBefore = await bankrolls(client, playerIds);
  await client.createTable(tableId, { name: 'Demo', variant: options.variant, smallBlind: 5, bigBlind: 10, minBuyIn: 100, maxBuyIn: 1000, maxPlayers: 6 });
  for (const id of playerIds) await expectSeated(client.buyIn(tableId, id, BUY_IN));

  let handsPlayed = 0;
  for (let hand = 1; hand <= options.hands; hand++) {
    await rebuyBusted(client, tableId);
    const { handId } = await client.startHand(tableId, `${options.seed}-${hand}`);
    await finishHandWithBots(client, tableId, handId);
    handsPlayed++;
    onHand(hand);
  }

  for (const id of playerIds) await client.leave(tableId, id);
  return { playerIds, tableId, handsPlayed, chipsBefore, chipsAfter: await bankrolls(client, playerIds) };
}

async function bankrolls(client: PokerClient, playerIds: string[]): Promise<number> {
  const balances = await Promise.all(playerIds.map((id) => client.balance(id)));
  return balances.reduce((sum, balance) => sum + balance.bankroll, 0);
}

/** Bots without chips leave (their session is settled) and buy in again while their bankroll allows. */
async function rebuyBusted(client: PokerClient, tableId: string): Promise<void> {
  for (const seat of (await client.table(tableId)).seats.filter((s) => s.stack === 0)) {
    await client.leave(tableId, seat.playerId);
    if ((await client.balance(seat.playerId)).available >= BUY_IN) await expectSeated(client.buyIn(tableId, seat.playerId, BUY_IN, seat.seat));
  }
}

async function expectSeated(outcome: ReturnType<PokerClient['buyIn']>): Promise<void> {
  const { status, code, reason, playerId } = await outcome;
  if (status !== 'COMPLETED') throw new Error(`buy-in of ${playerId} failed: ${code} ${reason}`);
}
