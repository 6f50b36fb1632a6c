import type { EventStore } from '@nest-es/core';
import type { LeaderboardEntry } from '../read-models/index.js';

/** The leaderboard of the demo's players as a text table. */
export function leaderboardTable(entries: LeaderboardEntry[]): string {
  const rows = entries.map((e, i) => [String(i + 1), e.displayName, signed(e.netWinnings), String(e.handsPlayed), String(e.handsWon)]);
  const table = [['#', 'player', 'net', 'played', 'won'], ...rows];
  const widths = table[0].map((_, column) => Math.max(...table.map((row) => row[column].length)));
  return table.map((row) => row.map((cell, column) => (column === 1 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ')).join('\n');
}

/** Every event in the store, counted by stream type (aggregates and process managers). */
export async function eventCounts(store: EventStore): Promise<{ total: number; byType: Record<string, number> }> {
  const byType: Record<string, number> = {};
  let total = 0;
  for (let batch = await store.readAll(); batch.length > 0; batch = await store.readAll({ afterPosition: batch[batch.length - 1].position })) {
    for (const event of batch) byType[event.aggregateType] = (byType[event.aggregateType] ?? 0) + 1;
    total += batch.length;
  }
  return { total, byType };
}

function signed(value: number): string {
  return value > 0 ? `+${value}` : String(value);
}
