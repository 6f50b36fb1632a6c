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

/** Reads the leaderboard: best net winnings first, then most hands won. */
@Injectable()
export class LeaderboardQuery {
  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async top(limit = 100): Promise<LeaderboardEntry[]> {
    const rows = await portableQuery<Record<string, string | number>>(
      this.dataSource,
      `SELECT player_id, display_name, net_winnings, hands_played, hands_won FROM poker_leaderboard
       ORDER BY net_winnings DESC, hands_won DESC, hands_played DESC, player_id LIMIT $1`,
      [limit],
    );
    return rows.map((row, i) => ({
      rank: i + 1,
      playerId: String(row.player_id),
      displayName: String(row.display_name),
      netWinnings: Number(row.net_winnings),
      handsPlayed: Number(row.hands_played),
      handsWon: Number(row.hands_won),
    }));
  }
}
