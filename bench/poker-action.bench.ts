import { fork } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { FASTIFY_ADAPTER_OPTIONS } from '@nest-es/http';
import type { StoreOptions } from '@nest-es/typeorm';
import { configurePokerApp } from '../apps/poker/src/http/configure-poker-app.js';
import { PokerModule } from '../apps/poker/src/poker.module.js';
import { followMoveCommits, type MoveCommit, type MoveCommits } from './move-commits.js';
import type { ActionOutcome, PokerPlay, PokerPlayResult } from './poker-player.js';
import { distribution, mean, nearestRank, round, type Distribution } from './stats.js';

export interface PokerActionFigures {
  /** Players at the table (heads-up). */
  players: number;
  /** Timed PlayerActions that succeeded, after `warmUp` untimed ones. */
  actions: number;
  warmUp: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
  /** What one caller sending actions back to back gets: 1000 / the mean. */
  perSec: number;
  /** Actions answered with other than 2xx, or not answered, warm-up included: should be 0. */
  failed: number;
  /** The first few failures' messages (warm-up ones too). */
  errors: string[];
  /** Hands dealt over the run, warm-up included. */
  hands: number;
  /** The same latencies by what the action's CASCADE covered (read from the table view after it). */
  byOutcome: Record<ActionOutcome, Distribution>;
  /** The commits a move waited for, by what it did; absent when a move failed (the counts could not be matched to the moves). */
  commitsByOutcome?: Record<ActionOutcome, CommitsPerMove>;
  /** The median move of each kind, commit by commit: where its time went; absent when a move failed. */
  chainByOutcome?: Record<ActionOutcome, MoveChain>;
  /** The fastest half of the moves by server time against the slowest 2%: where a slow move's CPU ran; absent when a move failed. */
  cpuBySpeed?: { fastestHalf: MoveCpu; slowest2Percent: MoveCpu };
}

/** Moves of one speed: the mean of their server time, of the process's CPU meanwhile and of its event loop's busy share. */
export interface MoveCpu {
  moves: number;
  serverMs: number;
  cpuMs: number;
  eventLoopBusy: number;
}

/** One move's commits in the order they came, and when it was answered (ms after the request arrived at the server). */
export interface MoveChain {
  chain: MoveCommit[];
  answeredMs: number;
}

/** The mean appends and checkpoint moves of one kind of move, and its mean duration shared among them. */
export interface CommitsPerMove {
  appends: number;
  checkpoints: number;
  msPerCommit: number;
}

/**
 * Untimed actions first: the statement caches, the first hands' read-model rows, and the JIT, whose
 * optimizing compiler is still at work a few hundred moves in (on V8's helper threads, taking a core
 * from the database and the player): the figure is a warm server's.
 */
const WARM_UP_ACTIONS = 500;
const PLAYERS = 2;

/**
 * The poker app as `npm start` boots it (start-server.ts: Nest on Fastify with FASTIFY_ADAPTER_OPTIONS,
 * configurePokerApp without a rate limit), with seeded deals, on loopback; a player process of its
 * own (poker-player.ts) plays hands against it and times each PlayerAction sent with CASCADE.
 */
export async function measurePokerAction(store: StoreOptions, actions: number): Promise<PokerActionFigures> {
  const app = await NestFactory.create<NestFastifyApplication>(PokerModule.forRoot({ store, auth: { seededDeals: true } }), new FastifyAdapter(FASTIFY_ADAPTER_OPTIONS), {
    logger: ['error', 'warn'],
  });
  try {
    configurePokerApp(app);
    const commits = followMoveCommits(app);
    await app.listen(0, '127.0.0.1');
    const url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    return figures(await play({ url, actions, warmUp: WARM_UP_ACTIONS, players: PLAYERS }), commits);
  } finally {
    await app.close();
  }
}

function play(options: PokerPlay): Promise<PokerPlayResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./poker-player.js', import.meta.url)), [JSON.stringify(options)]);
    child.once('message', (message) => {
      const answer = message as { result?: PokerPlayResult; error?: string };
      if (answer.result) resolve(answer.result);
      else reject(new Error(`the poker player process failed: ${answer.error}`));
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`the poker player process exited with ${code}`))));
  });
}

function figures(result: PokerPlayResult, commits: readonly MoveCommits[]): PokerActionFigures {
  const durations = result.timed.map((action) => action.ms);
  const { p50Ms, p99Ms, samples } = distribution(durations);
  const meanMs = mean(durations);
  const outcome = (kind: ActionOutcome): Distribution => {
    const of = result.timed.filter((action) => action.outcome === kind).map((action) => action.ms);
    return of.length > 0 ? distribution(of) : { p50Ms: 0, p99Ms: 0, samples: 0 };
  };
  return {
    players: PLAYERS,
    actions: samples,
    warmUp: WARM_UP_ACTIONS,
    p50Ms,
    p99Ms,
    meanMs: round(meanMs),
    maxMs: round(Math.max(0, ...durations)),
    perSec: round(1000 / meanMs),
    failed: result.failed + result.warmUpFailed,
    errors: result.errors,
    hands: result.hands,
    byOutcome: { passedTurn: outcome('passedTurn'), closedRound: outcome('closedRound'), endedHand: outcome('endedHand') },
    ...serverSideFigures(timedMoves(result, commits)),
  };
}

/** What the server recorded of the moves: the commits they waited for, the median move of each kind commit by commit, and the CPU by speed; none when a move failed. */
function serverSideFigures(moves: TimedMove[] | undefined): Pick<PokerActionFigures, 'commitsByOutcome' | 'chainByOutcome' | 'cpuBySpeed'> {
  return moves ? { commitsByOutcome: commitsByOutcome(moves), chainByOutcome: chainByOutcome(moves), cpuBySpeed: cpuBySpeed(moves) } : {};
}

type TimedMove = PokerPlayResult['timed'][number] & MoveCommits;

/** The timed moves with their commits: the requests after the warm-up, in order, when every move succeeded. */
function timedMoves(result: PokerPlayResult, commits: readonly MoveCommits[]): TimedMove[] | undefined {
  const timed = commits.slice(WARM_UP_ACTIONS);
  if (result.failed + result.warmUpFailed > 0 || timed.length !== result.timed.length) return undefined;
  return result.timed.map((action, index) => ({ ...action, ...timed[index] }));
}

function commitsByOutcome(moves: TimedMove[]): Record<ActionOutcome, CommitsPerMove> {
  const of = (kind: ActionOutcome): CommitsPerMove => {
    const ofKind = moves.filter((move) => move.outcome === kind);
    const appends = mean(ofKind.map((move) => move.appends));
    const checkpoints = mean(ofKind.map((move) => move.checkpoints));
    return { appends: round(appends), checkpoints: round(checkpoints), msPerCommit: round(mean(ofKind.map((move) => move.ms)) / Math.max(1, appends + checkpoints)) };
  };
  return { passedTurn: of('passedTurn'), closedRound: of('closedRound'), endedHand: of('endedHand') };
}

/** The move of each kind whose server time is the median (nearest rank) of its kind's, with its chain of commits. */
function chainByOutcome(moves: TimedMove[]): Record<ActionOutcome, MoveChain> {
  const median = (kind: ActionOutcome): MoveChain => {
    const ofKind = moves.filter((move) => move.outcome === kind).sort((a, b) => a.answeredMs - b.answeredMs);
    const move = ofKind[nearestRank(0.5, ofKind.length)];
    if (!move) return { chain: [], answeredMs: 0 };
    return { chain: move.chain.map(({ commit, atMs }) => ({ commit, atMs: round(atMs) })), answeredMs: round(move.answeredMs) };
  };
  return { passedTurn: median('passedTurn'), closedRound: median('closedRound'), endedHand: median('endedHand') };
}

/** The moves by server time: the fastest half and the slowest 2%, each with the process's CPU and its event loop's busy share. */
function cpuBySpeed(moves: TimedMove[]): NonNullable<PokerActionFigures['cpuBySpeed']> {
  const bySpeed = [...moves].sort((a, b) => a.answeredMs - b.answeredMs);
  const band = (of: TimedMove[]): MoveCpu => ({
    moves: of.length,
    serverMs: round(mean(of.map((move) => move.answeredMs))),
    cpuMs: round(mean(of.map((move) => move.cpuMs))),
    eventLoopBusy: round(mean(of.map((move) => move.eventLoopBusy))),
  });
  const slowest = Math.max(1, Math.round(bySpeed.length * 0.02));
  return { fastestHalf: band(bySpeed.slice(0, Math.ceil(bySpeed.length / 2))), slowest2Percent: band(bySpeed.slice(-slowest)) };
}
