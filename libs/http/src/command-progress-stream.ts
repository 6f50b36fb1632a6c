import type { CommandGateway, CommandResult } from '@nest-es/core';
import { ErrorCode, EventSourcingError } from '@nest-es/core';
import { SSE_OPENING, sseMessage } from './live/sse-message.js';
import { SseResponse } from './live/sse-response.js';

/** True when the client asked for the command's progress as server-sent events. */
export function wantsProgress(accept: string | string[] | undefined): boolean {
  return [accept ?? []].flat().some((value) => value.split(',').some((type) => type.split(';')[0].trim().toLowerCase() === 'text/event-stream'));
}

/**
 * A stored command's progress on the response, as server-sent events: `stored` (the answer a plain
 * request gets), a `handled` per subscriber as it has handled the command's consequences, then
 * `done`; or `timeout` (SYNC_TIMEOUT: they are late) or `error` with the error body. A client that leaves stops nothing
 * but the writing: the wait ends with the sync timeout at the latest.
 */
export async function streamProgress(gateway: CommandGateway, result: CommandResult, answer: object, response: unknown): Promise<void> {
  const sse = SseResponse.takeOver(response);
  sse.open();
  sse.write(SSE_OPENING);
  sse.write(sseMessage('stored', { ...answer, duplicate: result.duplicate }));
  const write = (event: string, data: unknown) => {
    if (!sse.closed) sse.write(sseMessage(event, data));
  };
  try {
    await gateway.follow(result, (step) => write('handled', step));
    write('done', {});
  } catch (error) {
    const known = error instanceof EventSourcingError;
    const body = known ? { code: error.code, message: error.message, details: error.details } : { code: 'INTERNAL', message: 'the progress could not be followed' };
    write(known && error.code === ErrorCode.SYNC_TIMEOUT ? 'timeout' : 'error', body);
  } finally {
    sse.end();
  }
}
