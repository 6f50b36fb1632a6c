import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { maxHeaderSize, Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorCode } from '@nest-es/core';
import type { ErrorBody } from './error-body.js';

/**
 * Requests Node refuses before any route runs (headers over the size limit, malformed HTTP, a client
 * too slow to send its headers) get the framework's coded JSON body instead of Node's bare status
 * line or Fastify's own body. It answers for the whole server, so it is provided only with the
 * `appWide` option. It goes first and removes no one's listener: the listeners after it (Fastify's
 * default, an app's own) still hear of the error, and find the connection answered and closed.
 */
@Injectable()
export class ClientErrorResponder implements OnApplicationBootstrap {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const server: unknown = this.adapterHost.httpAdapter?.getHttpServer();
    if (!(server instanceof Server)) return;
    // An app may have set the limit per server (`maxHeaderSize` server option).
    const limit = (server as { maxHeaderSize?: number }).maxHeaderSize ?? maxHeaderSize;
    server.prependListener('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket, limit));
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
