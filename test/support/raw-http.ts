import http from 'node:http';

export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body?: string;
}

/**
 * One request exactly as given (no client library normalizing a hostile path, header or body) to
 * 127.0.0.1:`port` over `agent`, and the answer's status and body text (of a live stream: its first event).
 */
export function sendRaw(port: number, agent: http.Agent, req: RawRequest): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ host: '127.0.0.1', port, method: req.method, path: req.path, headers: req.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      const answer = () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      // A live stream (server-sent events) never ends by itself: its first event is its answer.
      const live = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (live && Buffer.concat(chunks).includes('\n\n')) {
          answer();
          res.destroy();
        }
      });
      res.on('end', answer);
    });
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

/** The `code` of an error body, or undefined when the body is no JSON object with one. */
export function errorCode(body: string): unknown {
  try {
    return (JSON.parse(body) as { code?: unknown }).code;
  } catch {
    return undefined;
  }
}

/** Every code a hostile request may be refused with: anything else, and any 5xx, is a finding. */
export const REFUSAL_CODES = new Set([
  'INVALID_ARGUMENT', 'NOT_FOUND', 'FAILED_PRECONDITION', 'SEQUENCE_MISMATCH', 'ABORTED', 'ALREADY_EXISTS', 'UNSUPPORTED_MEDIA_TYPE', 'UNAUTHENTICATED', 'PERMISSION_DENIED',
]);

/** What a fuzz run's answers were: accepted, and refused by status and code. */
export class FuzzTally {
  sent = 0;
  ok = 0;
  refused = 0;
  private readonly byCode = new Map<string, number>();

  /** Counts an answer; throws unless it is a success or a refusal with one of REFUSAL_CODES. The refusal's code, if any. */
  record(req: RawRequest, res: { status: number; body: string }): string | undefined {
    this.sent++;
    if (res.status < 400) {
      this.ok++;
      return undefined;
    }
    const code = errorCode(res.body);
    this.refused++;
    this.byCode.set(`${res.status} ${String(code)}`, (this.byCode.get(`${res.status} ${String(code)}`) ?? 0) + 1);
    if (res.status >= 500 || typeof code !== 'string' || !REFUSAL_CODES.has(code)) {
      throw new Error(`${req.method} ${req.path} (${String(req.headers['content-type'] ?? 'no body')}) answered ${res.status}: ${res.body.slice(0, 300)}`);
    }
    return code;
  }

  toString(): string {
    return `${this.sent} requests, ${this.ok} accepted, ${this.refused} refused with a code, 0 5xx; refusals: ${JSON.stringify(Object.fromEntries([...this.byCode].sort()))}`;
  }
}
