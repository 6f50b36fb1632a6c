import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EventNotifier } from '@nest-es/core/internal';

/** What the server committed while it answered one PlayerAction, as the process announced it. */
export interface MoveCommits {
  /** Appends: the move's own, and those of the commands the hand flow sent after it. */
  appends: number;
  /** Checkpoint moves of the projectors, sagas and process managers that handled them. */
  checkpoints: number;
}

const isMove = (url: string) => url.endsWith('/PlayerAction');

/**
 * Counts, for each PlayerAction request in the order they are answered, the appends and checkpoint
 * moves announced between its arrival and its answer: the commits its CASCADE waited for. The player
 * sends one request at a time, so no two moves overlap. Call it before the app listens.
 */
export function countMoveCommits(app: NestFastifyApplication): MoveCommits[] {
  const moves: MoveCommits[] = [];
  let current: MoveCommits | undefined;
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', async (request) => {
    if (isMove(request.url)) current = { appends: 0, checkpoints: 0 };
  });
  fastify.addHook('onResponse', async (request) => {
    if (!isMove(request.url) || !current) return;
    moves.push(current);
    current = undefined;
  });
  const notifier = app.get(EventNotifier);
  notifier.onAppend(() => {
    if (current) current.appends++;
  });
  notifier.onCheckpoint(() => {
    if (current) current.checkpoints++;
  });
  return moves;
}
