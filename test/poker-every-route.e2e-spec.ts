// The built server (`npm start`): every route, the page and its static files and Swagger as much as
// the API, carries the security headers, and every request from one address counts toward ONE limit.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PokerProcess, startPokerProcess, stopPokerProcess } from './support/poker-process.js';

const ROUTES: Array<{ method: 'GET' | 'POST'; path: string }> = [
  { method: 'GET', path: '/' },
  { method: 'GET', path: '/app.js' },
  { method: 'GET', path: '/style.css' },
  { method: 'GET', path: '/favicon.ico' },
  { method: 'GET', path: '/docs' },
  { method: 'GET', path: '/docs/swagger-ui-init.js' },
  { method: 'GET', path: '/docs-json' },
  { method: 'GET', path: '/leaderboard' },
  { method: 'GET', path: '/tables/no-such-table' },
  { method: 'GET', path: '/health' },
  { method: 'GET', path: '/no-such-path' },
  { method: 'POST', path: '/auth/register' },
];

describe('the poker server: security headers and one rate limit on every route', () => {
  let folder: string;
  let server: PokerProcess;
  /** The first answer of each route: together they spend the address's whole limit. */
  const answers = new Map<string, Response>();
  let pagePolicy: string | null = null;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'poker-routes-'));
    server = await startPokerProcess(`sqlite:${join(folder, 'routes.sqlite')}`, { POKER_REQUESTS_PER_MINUTE: String(ROUTES.length) });
    for (const route of ROUTES) answers.set(route.path, await call(route));
    pagePolicy = answers.get('/')!.headers.get('content-security-policy');
  });

  afterAll(async () => {
    if (server) await stopPokerProcess(server);
    rmSync(folder, { recursive: true, force: true });
  });

  const call = ({ method, path }: (typeof ROUTES)[number]) =>
    fetch(server.url + path, method === 'POST' ? { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ displayName: 'Limit' }) } : {});

  function expectSecurityHeaders(path: string, response: Response): void {
    const headers = Object.fromEntries(['content-security-policy', 'x-frame-options', 'x-content-type-options', 'referrer-policy', 'x-powered-by'].map((name) => [name, response.headers.get(name)]));
    expect({ path, ...headers }).toEqual({
      path,
      'content-security-policy': expect.stringContaining("default-src 'self'"),
      'x-frame-options': 'SAMEORIGIN',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-powered-by': null,
    });
  }

  it('answers each route, page, static files, Swagger and API alike, with the security headers', () => {
    for (const route of ROUTES) {
      const response = answers.get(route.path)!;
      expect({ path: route.path, limited: response.status === 429, serverError: response.status >= 500 }).toEqual({ path: route.path, limited: false, serverError: false });
      expectSecurityHeaders(route.path, response);
    }
  });

  it('counts them all toward one limit per address: the next request, to any route, is 429 with the headers', async () => {
    for (const route of ROUTES) {
      const response = await call(route);
      expect({ path: route.path, status: response.status }).toEqual({ path: route.path, status: 429 });
      expect(await response.json()).toMatchObject({ statusCode: 429, code: 'RESOURCE_EXHAUSTED' });
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expectSecurityHeaders(route.path, response);
    }
  });

  it('gives the page a policy it works under: its own scripts, styles and API, over plain HTTP too; the page has no inline script', () => {
    const directives = Object.fromEntries(pagePolicy!.split(';').map((directive) => directive.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
    expect(directives).toMatchObject({ 'default-src': ["'self'"], 'script-src': ["'self'"], 'style-src': expect.arrayContaining(["'self'"]) });
    // Served over http:// on a LAN address, the page's own requests must not be upgraded to https://.
    expect(directives).not.toHaveProperty('upgrade-insecure-requests');
    const page = readFileSync('apps/poker/public/index.html', 'utf8');
    expect(page.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toBeNull();
    expect(page).not.toMatch(/\son[a-z]+=/);
  });
});
