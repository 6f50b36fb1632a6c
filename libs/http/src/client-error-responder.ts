import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { maxHeaderSize, Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorCode } from '@nest-es/core/internal';
import type { ErrorBody } from './error-body.js';

/**
 * Requests Node refuses before any route runs (headers over the size limit, malformed HTTP, a client
 * too slow to send its headers) get the framework's coded JSON body instead of Node's bare status
 * line. An app that listens for 'clientError' itself keeps its own answer; Fastify's default
 * listener (an app's `clientErrorHandler` option replaces it) gives way to this one.
 */
/** The name Fastify's own 'clientError' listener has: its default handler, bound to the instance. */
const FASTIFY_DEFAULT_LISTENER = 'bound defaultClientErrorHandler';

@Injectable()
export class ClientErrorResponder implements OnApplicationBootstrap {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const server: unknown = this.adapterHost.httpAdapter?.getHttpServer();
    if (!(server instanceof Server)) return;
    for (const listener of server.listeners('clientError')) {
      if (listener.name === FASTIFY_DEFAULT_LISTENER) server.off('clientError', listener as (...args: unknown[]) => void);
    }
    if (server.listenerCount('clientError') > 0) return;
    // An app may have set the limit per server (`maxHeaderSize` server option).
    const limit = (server as { maxHeaderSize?: number }).maxHeaderSize ?? maxHeaderSize;
    server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket, limit));
  }
}

export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, headerLimit: number): void {
  // A response already under way on this connection (or a gone client) cannot get another one.
  const inProgress = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (!socket.writable || inProgress || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [statusCode, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, `the request headers are larger than this server's limit of ${headerLimit} bytes`]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'the request was not received in time']
        : [400, 'malformed HTTP request'];
  const body = JSON.stringify({ statusCode, code: ErrorCode.INVALID_ARGUMENT, message } satisfies ErrorBody);
  socket.end(
    `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
