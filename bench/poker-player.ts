import { Agent, request as httpRequest } from 'node:http';
import { PokerApiError, PokerClient } from '../apps/poker/src/client/poker-client.js';
import type { TableView } from '../apps/poker/src/read-models/index.js';

/** What poker-action.bench.ts asks of the player process. */
export interface PokerPlay {
  url: string;
  /** Timed actions, after `warmUp` untimed ones. */
  actions: number;
  warmUp: number;
  players: number;
}

/** What a PlayerAction's CASCADE covered, read from the table view after it: the turn passed, a betting round closed, or the hand ended. */
export type ActionOutcome = 'passedTurn' | 'closedRound' | 'endedHand';

export interface PokerPlayResult {
  /** Each timed action that succeeded: its duration and what it did. */
  timed: Array<{ ms: number; outcome: ActionOutcome }>;
  /** Timed actions answered with other than 2xx (or with no answer), and warm-up ones. */
  failed: number;
  warmUpFailed: number;
  /** The first few failures' messages. */
  errors: string[];
  hands: number;
  tables: number;
}

const CASCADE = { 'Sync-Mode': 'CASCADE' };
/** A table's terms: no action timer fires during the run (the longest the table takes). */
const TERMS = { variant: 'TEXAS_HOLDEM', smallBlind: 5, bigBlind: 10, minBuyIn: 100, maxBuyIn: 1000, maxPlayers: 6, actionTimeoutMs: 600_000 } as const;
const BUY_IN = 500;
const MAX_FAILURES = 25;
/** How long the table may show a running hand with nobody to act (it should not: CASCADE returns once the flow has moved). */
const STALL_MS = 2000;

/** One connection, kept alive, as a player's browser would: node:http, which costs the client less than fetch. */
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

class KeepAliveClient extends PokerClient {
  override request<T>(method: 'GET' | 'POST', path: string, body?: object, headers: Record<string, string> = {}): Promise<T> {
    const payload = body ? JSON.stringify(body) : undefined;
    const sent = payload ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(payload)), ...headers } : headers;
    return new Promise<T>((resolve, reject) => {
      const outgoing = httpRequest(this.baseUrl + path, { method, agent, headers: sent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString();
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = { message: text.slice(0, 200) };
          }
          if (status < 200 || status >= 300) reject(new PokerApiError(status, (parsed as PokerApiError['body']) ?? {}));
          else resolve(parsed as T);
        });
      });
      outgoing.on('error', reject);
      outgoing.end(payload);
    });
  }
}

function outcomeOf(before: { handId: string; phase: string }, view: TableView): ActionOutcome {
  const hand = view.hand;
  if (view.status === 'waiting' || !hand || hand.handId !== before.handId || hand.phase === 'COMPLETE') return 'endedHand';
  return hand.phase === before.phase ? 'passedTurn' : 'closedRound';
}

/**
 * Plays Texas hold'em over HTTP as the players' one client: signs the players up, buys them in,
 * starts each hand (seeded, CASCADE), and sends the move of whoever the table view says is on turn,
 * checking or calling, each as `POST /commands/hand/<handId>/PlayerAction` with `Sync-Mode: CASCADE`
 * and that player's token, one at a time; only those requests are timed. A loser's turn at the
 * showdown is a muck (RevealCards, untimed). A table whose players cannot deal another hand is
 * replaced by a new one.
 */
async function playHands({ url, actions, warmUp, players }: PokerPlay): Promise<PokerPlayResult> {
  const client = new KeepAliveClient(url);
  const result: PokerPlayResult = { timed: [], failed: 0, warmUpFailed: 0, errors: [], hands: 0, tables: 0 };
  let tableId = '';
  let seated: string[] = [];
  const newTable = async () => {
    const table = ++result.tables;
    tableId = `bench-table-${table}`;
    await client.createTable(tableId, { name: `Bench ${table}`, ...TERMS });
    seated = Array.from({ length: players }, (_, i) => `bench-${table}-${i}`);
    for (const [seat, playerId] of seated.entries()) {
      await client.registerPlayer(playerId, playerId);
      const outcome = await client.buyIn(tableId, playerId, BUY_IN, seat);
      if (outcome.status !== 'COMPLETED') throw new Error(`the buy-in of ${playerId} at ${tableId} ended ${outcome.status}`);
    }
  };
  await newTable();
  let sent = 0;
  let last: { handId: string; phase: string; ms: number } | undefined;
  let stalledSince: number | undefined;
  for (;;) {
    const view = await client.table(tableId);
    if (last) {
      result.timed.push({ ms: last.ms, outcome: outcomeOf(last, view) });
      last = undefined;
    }
    if (sent === warmUp + actions) break;
    const hand = view.hand;
    if (view.status === 'waiting' || !hand) {
      if (view.seats.filter((seat) => seat.stack > 0 && !seat.sittingOut).length < 2) await newTable();
      await client.startHand(tableId, `bench-${result.hands++}`, seated[0]);
      continue;
    }
    if (!hand.actionOn) {
      stalledSince ??= performance.now();
      if (performance.now() - stalledSince > STALL_MS) throw new Error(`hand ${hand.handId} shows nobody to act for ${STALL_MS} ms after a CASCADE answer: ${JSON.stringify(hand)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      continue;
    }
    stalledSince = undefined;
    if (hand.phase === 'SHOWDOWN') {
      await client.command('hand', hand.handId, 'RevealCards', { playerId: hand.actionOn, muck: true }, CASCADE);
      continue;
    }
    const move = { playerId: hand.actionOn, action: hand.amountToCall > 0 ? 'CALL' : 'CHECK' };
    const timed = sent >= warmUp;
    const before = performance.now();
    try {
      await client.command('hand', hand.handId, 'PlayerAction', move, CASCADE);
    } catch (error) {
      if (timed) result.failed++;
      else result.warmUpFailed++;
      if (result.errors.length < 5) result.errors.push((error as Error).message);
      if (result.failed + result.warmUpFailed >= MAX_FAILURES) throw new Error(`${MAX_FAILURES} PlayerActions failed, the first: ${result.errors.join('; ')}`, { cause: error });
      continue;
    }
    const ms = performance.now() - before;
    sent++;
    if (timed) last = { handId: hand.handId, phase: hand.phase, ms };
  }
  return result;
}

const play = JSON.parse(process.argv[2]) as PokerPlay;
const message = await playHands(play).then(
  (result) => ({ result }),
  (error: unknown) => ({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
);
agent.destroy();
process.send!(message, () => process.disconnect());
