import { portableQuery } from '@nest-es/typeorm';
import { OnEvent, Projector, type ProjectionContext } from '@nest-es/core';
import type { EntityManager } from 'typeorm';
import { HandComplete, PotAwarded } from '../hand/index.js';
import { PlayerRegistered, PlayerRenamed } from '../player/index.js';
import { createTables } from './sql.js';

/** The projection's transaction is TypeORM's EntityManager: it also moves the checkpoint. */
type Ctx = ProjectionContext<EntityManager>;

/**
 * Leaderboard: per player, net winnings over all hands, hands played and hands won (a share of a pot
 * counts). It declares its table, so it can be rebuilt blue/green: its handlers write
 * `table('poker_leaderboard')`, which names the new copy's table while a rebuild builds it.
 */
@Projector('leaderboard', { tables: ['poker_leaderboard'] })
export class LeaderboardProjector {
  async createTables(manager: EntityManager, table: (name: string) => string): Promise<void> {
    const leaderboard = table('poker_leaderboard');
    await createTables(manager, [
      `CREATE TABLE IF NOT EXISTS ${leaderboard} (
        player_id TEXT PRIMARY KEY, display_name TEXT NOT NULL, net_winnings BIGINT NOT NULL,
        hands_played INTEGER NOT NULL, hands_won INTEGER NOT NULL)`,
      // The ranking's order, so a page (LIMIT/OFFSET) and a player's rank read the index rather than sort the table.
      `CREATE INDEX IF NOT EXISTS ${leaderboard}_rank ON ${leaderboard} (net_winnings DESC, hands_won DESC, hands_played DESC, player_id)`,
    ]);
  }

  @OnEvent(PlayerRegistered)
  async onRegistered(event: PlayerRegistered, { envelope, tx: manager, changed, table }: Ctx): Promise<void> {
    changed();
    await portableQuery(
      manager,
      `INSERT INTO ${table('poker_leaderboard')} (player_id, display_name, net_winnings, hands_played, hands_won) VALUES ($1, $2, 0, 0, 0)
       ON CONFLICT (player_id) DO NOTHING`,
      [envelope.aggregateId, event.displayName],
    );
  }

  @OnEvent(PlayerRenamed)
  async onRenamed(event: PlayerRenamed, { envelope, tx: manager, changed, table }: Ctx): Promise<void> {
    changed();
    await portableQuery(manager, `UPDATE ${table('poker_leaderboard')} SET display_name = $1 WHERE player_id = $2`, [event.displayName, envelope.aggregateId]);
  }

  @OnEvent(HandComplete)
  async onHandComplete(event: HandComplete, { tx: manager, changed, table }: Ctx): Promise<void> {
    changed();
    for (const [playerId, change] of Object.entries(event.stackChanges)) {
      await portableQuery(manager, `UPDATE ${table('poker_leaderboard')} SET net_winnings = net_winnings + $1, hands_played = hands_played + 1 WHERE player_id = $2`, [
        change,
        playerId,
      ]);
    }
  }

  @OnEvent(PotAwarded)
  async onPotAwarded(event: PotAwarded, { tx: manager, changed, table }: Ctx): Promise<void> {
    changed();
    for (const { playerId } of event.awards) {
      await portableQuery(manager, `UPDATE ${table('poker_leaderboard')} SET hands_won = hands_won + 1 WHERE player_id = $1`, [playerId]);
    }
  }
}
