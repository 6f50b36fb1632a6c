import type { TableView } from '../read-models/index.js';
import { PokerApiError, type PokerClient } from './poker-client.js';

/**
 * Lets the bots play the table's hand `handId` to its end (every player at the table must be an
 * AI player); returns the table once the hand has ended. Bounded: a stuck hand fails loudly.
 */
export async function finishHandWithBots(client: PokerClient, tableId: string, handId: string, timeoutMs = 20_000): Promise<TableView> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const view = await client.table(tableId);
    if (view.hand?.handId === handId && view.hand.phase === 'COMPLETE' && view.status === 'waiting') return view;
    const moves = await client.botsAct(tableId).catch((error: unknown) => {
      // The hand moved on (it ended, or the server's bot timer moved first) between the look and the move: the next look sees it.
      if (error instanceof PokerApiError && (error.status === 409 || error.status === 412)) return [];
      throw error;
    });
    if (moves.length === 0) await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`hand ${handId} at table ${tableId} did not finish within ${timeoutMs} ms`);
}
