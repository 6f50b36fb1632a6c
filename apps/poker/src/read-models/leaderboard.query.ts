import { Inject, Injectable } from '@nestjs/common';
import { READ_MODEL_DATA_SOURCE, portableQuery } from '@nest-es/typeorm';
import type { DataSource } from 'typeorm';

export interface LeaderboardEntry {
  rank: number;
  playerId: string;
  displayName: string;
  netWinnings: number;
  handsPlayed: number;
  handsWon: number;
}

/** One page of the leaderboard, and the reader's own row wherever it stands. */
export interface LeaderboardPage {
  entries: LeaderboardEntry[];
  /** Players on the whole leaderboard. */
  total: number;
  limit: number;
  offset: number;
  /** The offset of the next page; null on the last one. */
  nextOffset: number | null;
  /** The signed-in reader's row, with its rank, on this page or not; null for an anonymous reader (or one not on the board). */
  you: LeaderboardEntry | null;
}

/** Page size when the caller gives no `limit`, and the largest it may ask for. */
export const LEADERBOARD_DEFAULT_LIMIT = 20;
export const LEADERBOARD_MAX_LIMIT = 100;
/** The largest `offset`: far past any board the app holds, and a bounded number for the database. */
export const LEADERBOARD_MAX_OFFSET = 1_000_000_000;

/** The ranking: best net winnings first, then most hands won, most hands played, and the player id to break ties. */
const ORDER = 'ORDER BY net_winnings DESC, hands_won DESC, hands_played DESC, player_id';
const COLUMNS = 'player_id, display_name, net_winnings, hands_played, hands_won';

type Row = Record<string, string | number>;

/** Reads the leaderboard: best net winnings first, then most hands won. */
@Injectable()
export class LeaderboardQuery {
  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async page(limit = LEADERBOARD_DEFAULT_LIMIT, offset = 0, reader?: string): Promise<LeaderboardPage> {
    const rows = await portableQuery<Row>(this.dataSource, `SELECT ${COLUMNS} FROM poker_leaderboard ${ORDER} LIMIT $1 OFFSET $2`, [limit, offset]);
    const [{ count }] = await portableQuery<{ count: string | number }>(this.dataSource, 'SELECT COUNT(*) AS count FROM poker_leaderboard');
    const total = Number(count);
    const entries = rows.map((row, i) => entry(row, offset + i + 1));
    return { entries, total, limit, offset, nextOffset: offset + entries.length < total ? offset + entries.length : null, you: reader === undefined ? null : await this.rowOf(reader) };
  }

  /** A player's row with its rank: one more than the players ranked ahead of it. */
  private async rowOf(playerId: string): Promise<LeaderboardEntry | null> {
    const [row] = await portableQuery<Row>(this.dataSource, `SELECT ${COLUMNS} FROM poker_leaderboard WHERE player_id = $1`, [playerId]);
    if (!row) return null;
    const [{ ahead }] = await portableQuery<{ ahead: string | number }>(
      this.dataSource,
      `SELECT COUNT(*) AS ahead FROM poker_leaderboard WHERE net_winnings > $1
         OR (net_winnings = $1 AND (hands_won > $2 OR (hands_won = $2 AND (hands_played > $3 OR (hands_played = $3 AND player_id < $4)))))`,
      [row.net_winnings, row.hands_won, row.hands_played, playerId],
    );
    return entry(row, Number(ahead) + 1);
  }
}

function entry(row: Row, rank: number): LeaderboardEntry {
  return {
    rank,
    playerId: String(row.player_id),
    displayName: String(row.display_name),
    netWinnings: Number(row.net_winnings),
    handsPlayed: Number(row.hands_played),
    handsWon: Number(row.hands_won),
  };
}
