import type { INestApplicationContext } from '@nestjs/common';
import { CommandGateway } from '@nest-es/core';
import { Deposit } from './bench-aggregates.js';
import { distribution, round, type Distribution } from './stats.js';

export interface CommandFigures extends Distribution {
  concurrency: number;
  perSec: number;
}

export interface RateFigures extends Distribution {
  ratePerSec: number;
}

const randomDeposit = (accounts: number) => new Deposit(`account-${Math.floor(Math.random() * accounts)}`, 1);

/**
 * One Deposit to every account (64 callers), so that the figures after it measure commands on cached
 * aggregates, as the plan says: a timed warm-up at random leaves some accounts cold, and a cold one's
 * command reads its snapshot and events first (three round trips on PostgreSQL instead of one).
 */
export async function warmAccounts(app: INestApplicationContext, accounts: number): Promise<void> {
  const gateway = app.get(CommandGateway);
  const lanes = 64;
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      for (let account = lane; account < accounts; account += lanes) await gateway.send(new Deposit(`account-${account}`, 1));
    }),
  );
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
        await gateway.send(randomDeposit(accounts));
        latencies.push(performance.now() - sent);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { concurrency, ...distribution(latencies), perSec: round(latencies.length / seconds) };
}

const TICK_MS = 5;

/**
 * Commands at a steady rate whatever their latency (an open loop, as independent users send them), for
 * latency at a moderate load: closed-loop callers instead run the store at the most it can do for them.
 */
export async function measureAtRate(app: INestApplicationContext, ratePerSec: number, durationMs: number, accounts: number): Promise<RateFigures> {
  const gateway = app.get(CommandGateway);
  const latencies: number[] = [];
  const inFlight: Promise<void>[] = [];
  const started = performance.now();
  for (let due = 0; performance.now() - started < durationMs; ) {
    // Every command due by now is sent, so a late tick sends its backlog instead of lowering the rate.
    for (const owed = ((performance.now() - started) / 1000) * ratePerSec; due < owed; due++) {
      const sent = performance.now();
      inFlight.push(gateway.send(randomDeposit(accounts)).then(() => void latencies.push(performance.now() - sent)));
    }
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
  await Promise.all(inFlight);
  return { ratePerSec, ...distribution(latencies) };
}
