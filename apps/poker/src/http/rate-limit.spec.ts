import type { IncomingMessage, ServerResponse } from 'node:http';
import { rateLimit } from './rate-limit.js';

describe('rateLimit: one window a minute per client address', () => {
  let now = 0;
  const limit = rateLimit(2, () => now);

  /** One request from `ip`: 'next' when let through, else the status and Retry-After it got. */
  function send(ip: string): string {
    const headers: Record<string, string> = {};
    const response = { statusCode: 200, setHeader: (name: string, value: string) => (headers[name] = value), end: () => undefined };
    let passed = false;
    limit({ socket: { remoteAddress: ip } } as unknown as IncomingMessage, response as unknown as ServerResponse, () => (passed = true));
    return passed ? 'next' : `${response.statusCode} retry ${headers['Retry-After']}`;
  }

  it('lets `requestsPerMinute` through per address, then answers 429 until the window ends', () => {
    expect([send('a'), send('a'), send('b')]).toEqual(['next', 'next', 'next']);
    now = 15_000;
    expect(send('a')).toBe('429 retry 45');
    expect(send('b')).toBe('next');
    now = 60_000;
    expect([send('a'), send('a'), send('a')]).toEqual(['next', 'next', '429 retry 60']);
  });
});
