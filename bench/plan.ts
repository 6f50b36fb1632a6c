import type { JetStreamPlan } from './jetstream.bench.js';
import type { ScaleOutPlan } from './scale-out.bench.js';

/** How long and how often each figure is measured. */
export interface BenchPlan {
  mode: 'quick' | 'full';
  rebuildSamples: { snapshot: number; full: number };
  /** Commands go to this many accounts at random: many aggregates, each in the aggregate cache once warm. */
  accounts: number;
  warmupMs: number;
  commandMs: number;
  /** The steady rate of the moderate-load latency figure, a fraction of what either database takes. */
  moderateRatePerSec: number;
  rawCommitMs: number;
  memoryMs: number;
  /** The first and last stretch of the sustained run compared for growth. */
  memoryWindowMs: number;
  /** More accounts than the aggregate cache holds (10,000): the sustained run also evicts and reloads. */
  memoryAccounts: number;
  /** ASYNC deposits at 16 callers whose projection lag is measured. */
  projectionMs: number;
  /** Sends per sync mode (one caller) for the cost of SIMPLE and CASCADE. */
  syncSamples: number;
  /** ASYNC deposits (one caller) beside a projector that takes 500 ms per event. */
  slowProjectorMs: number;
  /** Events in the store a projector catches up over from position 0. */
  catchUpEvents: number;
  /** Each HTTP load (1 and 64 connections). */
  httpMs: number;
  /** SIMPLE sends (one caller) without and then with a poison event being retried. */
  poisonSamples: number;
  /** Commits whose update one live-query client times. */
  liveSamples: number;
  /** Operations per step of the lone-command breakdown. */
  loneCommandOps: number;
  /** Timed poker PlayerActions over HTTP with CASCADE, one caller, per database (after 500 untimed). */
  pokerActions: number;
  /** Each run of the append-lock figure (1, 2 and 3 appending processes, PostgreSQL). */
  appendLockMs: number;
  /** Instances in processes of their own on one PostgreSQL schema (scale-out.bench.ts). */
  scaleOut: ScaleOutPlan;
  /** The JetStream publisher (jetstream.bench.ts). */
  jetStream: JetStreamPlan;
}

export const QUICK_PLAN: BenchPlan = {
  mode: 'quick',
  rebuildSamples: { snapshot: 200, full: 5 },
  accounts: 2000,
  warmupMs: 500,
  commandMs: 1500,
  moderateRatePerSec: 1000,
  rawCommitMs: 1500,
  memoryMs: 15_000,
  memoryWindowMs: 3000,
  memoryAccounts: 50_000,
  projectionMs: 2000,
  syncSamples: 100,
  slowProjectorMs: 3000,
  catchUpEvents: 100_000,
  httpMs: 2000,
  poisonSamples: 300,
  liveSamples: 200,
  loneCommandOps: 500,
  pokerActions: 200,
  appendLockMs: 2000,
  scaleOut: { events: 20_000, lagRatePerSec: 200, lagMs: 3000, failoverSamples: 3, refusalMs: 2000 },
  jetStream: { events: 20_000, lagRatePerSec: 200, lagMs: 3000 },
};

export const FULL_PLAN: BenchPlan = {
  mode: 'full',
  rebuildSamples: { snapshot: 1000, full: 20 },
  accounts: 2000,
  warmupMs: 3000,
  commandMs: 10_000,
  moderateRatePerSec: 1000,
  rawCommitMs: 10_000,
  memoryMs: 180_000,
  memoryWindowMs: 60_000,
  memoryAccounts: 50_000,
  projectionMs: 10_000,
  syncSamples: 500,
  slowProjectorMs: 10_000,
  catchUpEvents: 1_000_000,
  httpMs: 10_000,
  poisonSamples: 2000,
  liveSamples: 1000,
  loneCommandOps: 4000,
  pokerActions: 800,
  appendLockMs: 10_000,
  scaleOut: { events: 200_000, lagRatePerSec: 500, lagMs: 10_000, failoverSamples: 10, refusalMs: 10_000 },
  jetStream: { events: 200_000, lagRatePerSec: 500, lagMs: 10_000 },
};
