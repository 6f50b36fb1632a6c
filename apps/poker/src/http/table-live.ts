import type { LiveQueryTrigger } from '@nest-es/core';
import type { Balance, LeaderboardPage, TableView } from '../read-models/index.js';

/** What the poker page shows, pushed together: the table, the leaderboard's first page, the reader's own balance. */
export interface TableLive {
  table: TableView;
  leaderboard: LeaderboardPage;
  /** Signed in only: the reader's own. */
  balance: Balance | null;
}

/** The leaderboard rows the page shows. */
export const LIVE_LEADERBOARD_ROWS = 100;

/** The read models a table's page watches: its table's view, the leaderboard, and the reader's balance. */
export function tableLiveTriggers(tableId: string, reader?: string): LiveQueryTrigger[] {
  return [{ projector: 'table-view', key: tableId }, { projector: 'leaderboard' }, ...(reader ? [{ projector: 'balances', key: reader }] : [])];
}
