import { type BeforeApplicationShutdown, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type IncomingMessage, Server, type ServerResponse } from 'node:http';

/** How long the shutdown waits for the requests in flight to be answered. */
export const REQUESTS_DRAIN_MS = 10_000;

/**
 * Lets the requests in flight be answered before the server closes. Nest closes the HTTP server after
 * the shutdown hooks, and on Fastify (FASTIFY_ADAPTER_OPTIONS: `forceCloseConnections`) that close
 * drops every connection at once, answered or not; on Express it waits for them. So the shutdown waits
 * here for every response still open, up to REQUESTS_DRAIN_MS, except server-sent event streams: they
 * end only with their connection, which the close is there to cut.
 */
@Injectable()
export class RequestsInFlight implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly open = new Set<ServerResponse>();
  private settled: (() => void) | undefined;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const server: unknown = this.adapterHost.httpAdapter?.getHttpServer();
    if (!(server instanceof Server)) return;
    server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
      this.open.add(response);
      response.once('close', () => {
        this.open.delete(response);
        if (this.settled && this.pending() === 0) this.settled();
      });
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.pending() === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.settled = resolve;
      timer = setTimeout(resolve, REQUESTS_DRAIN_MS);
    });
    clearTimeout(timer);
    this.settled = undefined;
  }

  /** Responses still open, server-sent event streams left out. */
  private pending(): number {
    let count = 0;
    for (const response of this.open) if (!String(response.getHeader('content-type') ?? '').startsWith('text/event-stream')) count++;
    return count;
  }
}
