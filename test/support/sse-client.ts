/** One server-sent event as a client sees it. */
export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/**
 * A server-sent event stream read with fetch, as a browser's EventSource would parse it (the fields
 * this framework sends: id, event, data, comment lines), but without reconnecting on its own: a test
 * decides when and with which Last-Event-ID.
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  /** Comment lines (heartbeats) seen. */
  comments = 0;
  /** Resolves when the server ends the stream (or `close` aborts it). */
  readonly ended: Promise<void>;
  private readonly abort: AbortController;
  private waiters: Array<() => void> = [];
  private done = false;
  private startReading!: () => void;

  private constructor(
    readonly status: number,
    readonly headers: Headers,
    body: ReadableStream<Uint8Array>,
    abort: AbortController,
  ) {
    this.abort = abort;
    // Locked at once: fetch cancels the body of a Response that is garbage-collected while its body is
    // unlocked and unread, which a paused client's would be (the stream then ends with nothing read).
    const reader = body.getReader();
    this.ended = new Promise<void>((resolve) => (this.startReading = resolve)).then(() => this.read(reader));
  }

  /**
   * Connects (with `post`: POSTs it as JSON); a refusal (any status but 200) comes back with its body
   * as text, no stream. `paused`: nothing is read until `resume`, so the socket fills up as behind a
   * slow client.
   */
  static async connect(
    url: string,
    headers: Record<string, string> = {},
    options: { paused?: boolean; post?: unknown } = {},
  ): Promise<SseClient | { status: number; headers: Headers; body: string }> {
    const abort = new AbortController();
    const body = options.post === undefined ? {} : { method: 'POST', body: JSON.stringify(options.post), headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers } };
    const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, ...body, signal: abort.signal });
    if (response.status !== 200 || !response.body) return { status: response.status, headers: response.headers, body: await response.text() };
    const client = new SseClient(response.status, response.headers, response.body, abort);
    if (!options.paused) client.resume();
    return client;
  }

  /** Starts reading a stream connected `paused`. */
  resume(): void {
    this.startReading();
  }

  /** The events' ids as numbers, in arrival order. */
  get ids(): number[] {
    return this.events.map((event) => Number(event.id));
  }

  /** Resolves once at least `count` events arrived; fails after `timeoutMs`. */
  async received(count: number, timeoutMs = 10_000): Promise<SseEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.events.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${count} events; got ${this.events.length}: ${JSON.stringify(this.ids)}`);
      if (this.done) throw new Error(`the stream ended after ${this.events.length} of ${count} events: ${JSON.stringify(this.ids)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.events.slice(0, count);
  }

  /** Disconnects, as a browser tab that goes away. */
  async close(): Promise<void> {
    this.abort.abort();
    this.resume();
    await this.ended;
  }

  private async read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    let current: Partial<SseEvent> & { data?: string } = {};
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        buffer += decoder.decode(chunk.value, { stream: true });
        let end: number;
        while ((end = buffer.search(/\r\n|\r|\n/)) >= 0) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
          current = this.line(line, current);
        }
      }
    } catch (error) {
      if ((error as Error).name !== 'AbortError') throw error;
    } finally {
      this.done = true;
      this.wakeWaiters();
    }
  }

  /** One line of the stream: a field, a comment, or the blank line that dispatches the event. */
  private line(line: string, current: Partial<SseEvent>): Partial<SseEvent> {
    if (line === '') {
      if (current.data !== undefined) {
        this.events.push({ ...current, data: current.data } as SseEvent);
        this.wakeWaiters();
      }
      return {};
    }
    if (line.startsWith(':')) {
      this.comments++;
      return current;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') return { ...current, data: current.data === undefined ? value : `${current.data}\n${value}` };
    if (field === 'id' || field === 'event') return { ...current, [field]: value };
    return current;
  }

  private wakeWaiters(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** Narrows a connect result to an open stream; fails with the refusal otherwise. */
export function opened(result: Awaited<ReturnType<typeof SseClient.connect>>): SseClient {
  if (result instanceof SseClient) return result;
  throw new Error(`expected an open stream, got ${result.status}: ${result.body}`);
}
