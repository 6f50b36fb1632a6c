import 'reflect-metadata';
import { Command, InvalidArgumentError } from 'commander';
import { EVENT_STORE, type EventStore } from '@nest-es/core';
import { VARIANTS, type Variant } from './cards/index.js';
import { PokerClient } from './client/poker-client.js';
import { playDemo } from './demo/demo-game.js';
import { demoProgress } from './demo/demo-progress.js';
import { eventCounts, leaderboardTable } from './demo/demo-report.js';
import { startDemoServer } from './demo/demo-server.js';

function wholeNumber(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}, got '${value}'`);
    return n;
  };
}

const program = new Command('npm run demo')
  .description('Bots play seeded hands through the HTTP API of a poker app started in this process (a temp SQLite file unless DATABASE_URL is set).')
  .option('--hands <n>', 'hands to play', wholeNumber(1, 100_000), 20)
  .option('--seed <seed>', 'seed of the deals: the same seed deals the same cards', '1')
  .option('--players <n>', 'bots at the table', wholeNumber(2, 6), 4)
  .option('--variant <variant>', `one of ${VARIANTS.join(', ')}`, (value: string) => {
    if (!(VARIANTS as readonly string[]).includes(value)) throw new InvalidArgumentError(`must be one of ${VARIANTS.join(', ')}`);
    return value as Variant;
  }, 'TEXAS_HOLDEM' as Variant);

async function main(): Promise<number> {
  const options = program.parse().opts<{ hands: number; seed: string; players: number; variant: Variant }>();
  const server = await startDemoServer(process.env.DATABASE_URL || undefined);
  try {
    console.log(`poker demo: ${options.players} bots, ${options.hands} hands of ${options.variant}, seed ${options.seed}, on ${server.database}`);
    const client = new PokerClient(server.baseUrl);
    const progress = demoProgress(options.hands);
    const outcome = await playDemo(client, options, (hand) => progress.update(hand)).finally(() => progress.stop());

    const board = (await client.leaderboard()).filter((entry) => outcome.playerIds.includes(entry.playerId));
    console.log(`\nleaderboard after ${outcome.handsPlayed} hands:\n${leaderboardTable(board)}`);
    const events = await eventCounts(server.app.get<EventStore>(EVENT_STORE));
    const byType = Object.entries(events.byType).map(([type, count]) => `${type} ${count}`);
    console.log(`\nevents stored: ${events.total} (${byType.join(', ')})`);
    const equal = outcome.chipsBefore === outcome.chipsAfter;
    console.log(`chips in the bankrolls: before ${outcome.chipsBefore}, after ${outcome.chipsAfter}: ${equal ? 'equal' : 'NOT EQUAL'}`);
    return equal ? 0 : 1;
  } finally {
    await server.close();
  }
}

main()
  .then((code) => (process.exitCode = code))
  .catch((error: unknown) => {
    console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
