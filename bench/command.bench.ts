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

/** What a closed loop of callers did: each command's latency and the time they all took. */
export interface CommandRun {
  concurrency: number;
  latencies: number[];
  seconds: number;
}

/** The figures of one or more runs of the same callers, taken as one. */
export function commandFigures(...runs: CommandRun[]): CommandFigures {
  const latencies = runs.flatMap((run) => run.latencies);
  const seconds = runs.reduce((total, run) => total + run.seconds, 0);
  return { concurrency: runs[0].concurrency, ...distribution(latencies), perSec: round(latencies.length / seconds) };
}

/** `concurrency` callers each send one Deposit after another to random accounts until the time is up. */
export async function runCommands(app: INestApplicationContext, concurrency: number, durationMs: number, accounts: number): Promise<CommandRun> {
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
  return { concurrency, latencies, seconds: (performance.now() - started) / 1000 };
}

export async function measureCommands(app: INestApplicationContext, concurrency: number, durationMs: number, accounts: number): Promise<CommandFigures> {
  return commandFigures(await runCommands(app, concurrency, durationMs, accounts));
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

/** A mixed workload's shape: per account one command on a cold aggregate, then this many on the cached one. */
export const MIXED_WARM_FOLLOW_UPS = 3;

/**
 * The mixed workload: `accounts` accounts that exist in the store (seeded by an earlier process) but
 * not in this process's cache; `concurrency` callers share them, and each account gets one Deposit
 * that loads it cold and then MIXED_WARM_FOLLOW_UPS more on the cached aggregate, so a quarter of the
 * commands pay the cold load (its snapshot and events read) as they would after a restart or for
 * rarely seen aggregates.
 */
export async function runMixed(app: INestApplicationContext, concurrency: number, accountIds: string[]): Promise<CommandRun> {
  const gateway = app.get(CommandGateway);
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let index = next++; index < accountIds.length; index = next++) {
        for (let i = 0; i <= MIXED_WARM_FOLLOW_UPS; i++) {
          const sent = performance.now();
          await gateway.send(new Deposit(accountIds[index], 1));
          latencies.push(performance.now() - sent);
        }
      }
    }),
  );
  return { concurrency, latencies, seconds: (performance.now() - started) / 1000 };
}

/** The share of the mixed workload's commands that load their aggregate cold. */
export const MIXED_COLD_SHARE = round(1 / (1 + MIXED_WARM_FOLLOW_UPS));

export async function measureMixed(app: INestApplicationContext, concurrency: number, accountIds: string[]): Promise<CommandFigures & { coldShare: number }> {
  return { ...commandFigures(await runMixed(app, concurrency, accountIds)), coldShare: MIXED_COLD_SHARE };
}
