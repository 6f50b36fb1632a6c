import type { EventLoopUtilization } from 'node:perf_hooks';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EventNotifier } from '@nest-es/core/internal';

/** One commit a move waited for: an append (named by its stream's aggregate type) or a checkpoint move (by its checkpoint). */
export interface MoveCommit {
  commit: string;
  /** When it was announced, in ms after the request arrived. */
  atMs: number;
}

/** What the server committed while it answered one PlayerAction, as the process announced it, and the CPU it used. */
export interface MoveCommits {
  /** Appends: the move's own, and those of the commands the hand flow sent after it. */
  appends: number;
  /** Checkpoint moves of the projectors, sagas and process managers that handled them. */
  checkpoints: number;
  /** Each of them in the order announced: the move's chain of commits. */
  chain: MoveCommit[];
  /** When the answer went out, in ms after the request arrived. */
  answeredMs: number;
  /** The process's CPU meanwhile, every thread (V8's compiler and collector helpers too), in ms. */
  cpuMs: number;
  /** The share of that time its event loop was busy, 0 to 1. */
  eventLoopBusy: number;
}

/** What a move in progress started from. */
interface MoveStart {
  arrived: number;
  cpu: NodeJS.CpuUsage;
  eventLoop: EventLoopUtilization;
}

const isMove = (url: string) => url.endsWith('/PlayerAction');

/**
 * Follows, for each PlayerAction request in the order they are answered, the appends and checkpoint
 * moves announced between its arrival and its answer: the commits its CASCADE waited for, when each
 * came, and the process's CPU meanwhile. The player sends one request at a time, so no two moves
 * overlap. Call it before the app listens.
 */
export function followMoveCommits(app: NestFastifyApplication): MoveCommits[] {
  const moves: MoveCommits[] = [];
  let current: (Pick<MoveCommits, 'appends' | 'checkpoints' | 'chain'> & MoveStart) | undefined;
  const note = (commit: string) => current?.chain.push({ commit, atMs: performance.now() - current.arrived });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', async (request) => {
    if (isMove(request.url)) {
      current = { appends: 0, checkpoints: 0, chain: [], arrived: performance.now(), cpu: process.cpuUsage(), eventLoop: performance.eventLoopUtilization() };
    }
  });
  fastify.addHook('onResponse', async (request) => {
    if (!isMove(request.url) || !current) return;
    const { arrived, cpu, eventLoop, ...move } = current;
    const used = process.cpuUsage(cpu);
    const eventLoopBusy = performance.eventLoopUtilization(eventLoop).utilization;
    moves.push({ ...move, answeredMs: performance.now() - arrived, cpuMs: (used.user + used.system) / 1000, eventLoopBusy });
    current = undefined;
  });
  const notifier = app.get(EventNotifier);
  notifier.onAppend((events) => {
    if (!current) return;
    current.appends++;
    note(`append ${events[0].aggregateType}`);
  });
  notifier.onCheckpoint((moved) => {
    if (!current) return;
    current.checkpoints++;
    note(`checkpoint ${moved.checkpoint}`);
  });
  return moves;
}
