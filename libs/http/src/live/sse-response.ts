import type { ServerResponse } from 'node:http';

/**
 * A server-sent event response on Node's ServerResponse under either adapter: Express's response is
 * one, Fastify's reply wraps one as `raw` and is told to keep out (`hijack`), so nothing of Fastify's
 * answers or closes it behind the stream's back. Headers set earlier on the raw response (security
 * headers, CORS) stay.
 */
export class SseResponse {
  private readonly raw: ServerResponse;

  private constructor(response: unknown) {
    const reply = response as { raw?: ServerResponse; hijack?: () => void };
    if (reply.raw && typeof reply.hijack === 'function') reply.hijack();
    this.raw = reply.raw ?? (response as ServerResponse);
  }

  /** Takes over the adapter's response; call only once the request is accepted (errors before it get the error body). */
  static takeOver(response: unknown): SseResponse {
    return new SseResponse(response);
  }

  /** Sends the 200 and the headers at once, so the client knows it is connected before the first event. */
  open(): void {
    this.raw.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      // Nothing on the way may cache or rewrite the stream; nginx would buffer it without the last one.
      'Cache-Control': 'no-cache, no-transform',
      'X-Accel-Buffering': 'no',
    });
    this.raw.flushHeaders();
  }

  /** False when the socket's buffer is full: write no more until `onDrain`. */
  write(chunk: string): boolean {
    return this.raw.write(chunk);
  }

  onDrain(listener: () => void): void {
    this.raw.on('drain', listener);
  }

  /** When the client goes away or the stream was ended. */
  onClose(listener: () => void): void {
    this.raw.once('close', listener);
  }

  get closed(): boolean {
    return this.raw.writableEnded || this.raw.destroyed;
  }

  end(): void {
    if (!this.closed) this.raw.end();
  }
}
