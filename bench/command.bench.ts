import type { INestApplicationContext } from '@nestjs/common';
import { CommandGateway } from '#event-sourcing';
import { Deposit } from './bench-aggregates.js';
import { distribution, round, type Distribution } from './stats.js';

export interface CommandFigures extends Distribution {
  concurrency: number;
  perSec: number;
}

/** `concurrency` callers each send one Deposit after another to random accounts until the time is up. */
export async function measureCommands(app: INestApplicationContext, concurrency: number, durationMs: number, accounts: number): Promise<CommandFigures> {
  const gateway = app.get(CommandGateway);
  const latencies: number[] = [];
  const started = performance.now();
  const end = started + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const sent = performance.now();
        await gateway.send(new Deposit(`account-${Math.floor(Math.random() * accounts)}`, 1));
        latencies.push(performance.now() - sent);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { concurrency, ...distribution(latencies), perSec: round(latencies.length / seconds) };
}
