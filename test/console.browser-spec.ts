import { existsSync, mkdirSync } from 'node:fs';
import type { INestApplication } from '@nestjs/common';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CommandGateway } from '@nest-es/core';
import { DEAD_LETTER_STORE, type DeadLetterStore } from '@nest-es/core/internal';
import { ADMIN_TOKEN, MeterTotalsProjector, Read, startConsoleApp } from './support/console-app.js';
import { createTestStore, type TestStore } from './support/test-store.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Copied by hand to docs/images/console.png when the page changes (the manual shows it). */
const SCREENSHOT = 'test/artifacts/console-page.png';

/** What the waits read of the page. They run in it as functions: its CSP forbids evaluating a string. */
interface PageDocument {
  querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>;
}

/** Until the page has `count` elements matching `selector`. */
function untilCount(target: Page, selector: string, count: number) {
  return target.waitForFunction(
    ([query, n]) => (globalThis as unknown as { document: PageDocument }).document.querySelectorAll(query).length === n,
    [selector, count] as [string, number],
    { timeout: 15_000 },
  );
}

/** The operator console in headless Chromium: sign in with the admin token, see a held event and its error, retry it. */
describe('the operator console page', () => {
  let store: TestStore;
  let app: INestApplication;
  let url: string;
  let browser: Browser;
  let page: Page;
  /** The page's errors: a CSP violation (an inline script or style) shows as a console error. */
  const errors: string[] = [];

  beforeAll(async () => {
    // Fails, never skips: the page is part of the product.
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: install it (apt-get install -y chromium)`);
    store = await createTestStore();
    ({ app, url } = await startConsoleApp(store.options, 'express'));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage({ viewport: { width: 1100, height: 520 } });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await store?.cleanup();
  });

  it('asks for the token, shows the held event with its error, and releases it when the operator retries and confirms', async () => {
    const projector = app.get(MeterTotalsProjector);
    const gateway = app.get(CommandGateway);
    await gateway.send(new Read('kitchen', 3));
    projector.failing = true;
    await gateway.send(new Read('bad', 5));

    await page.goto(`${url}/console`);
    await page.waitForSelector('#sign-in:not(.hidden)');
    expect(await page.isVisible('#panels')).toBe(false);
    await page.fill('#token', ADMIN_TOKEN);
    await page.click('#use-token');
    await page.waitForSelector('#panels:not(.hidden)');
    // The token stays in this tab only.
    expect(await page.evaluate(() => (globalThis as unknown as { sessionStorage: { length: number } }).sessionStorage.length)).toBe(1);

    await untilCount(page, 'tr.held-event', 1);
    await page.waitForSelector('tr.held-event .held-error');
    expect(await page.textContent('tr.held-event')).toMatch(/meter\/bad.*failed attempt.*meter bad is out of range/s);
    expect(await page.textContent('#subscribers')).toContain('meter-totals');
    mkdirSync('test/artifacts', { recursive: true });
    await page.screenshot({ path: SCREENSHOT, clip: { x: 0, y: 0, width: 1100, height: 270 } });

    // Four failures first: the next automatic attempt is then over a second away, so it is the
    // operator's retry that releases the event, and the flag clears only as the retry reaches the server.
    await page.waitForFunction(() => /([4-9]|\d{2,}) failed attempt/.test((globalThis as unknown as { document: PageDocument }).document.querySelectorAll('tr.held-event')[0]?.textContent ?? ''), undefined, { timeout: 15_000 });
    await page.route('**/console/api/subscribers/held/retry', async (route) => {
      projector.failing = false;
      await route.continue();
    });
    await page.click('tr.held-event button.retry-held');
    await page.waitForSelector('#confirm[open]');
    expect(await page.textContent('#confirm-text')).toMatch(/Retry the held event at position \d+ of meter-totals now\?/);
    const retried = page.waitForResponse((response) => response.url().endsWith('/console/api/subscribers/held/retry'));
    await page.click('#confirm-ok');
    expect((await retried).status()).toBe(200);
    await untilCount(page, 'tr.held-event', 0);
    expect(await page.textContent('#status')).toMatch(/by operator-olga/);
    expect(projector.totals.get('bad')).toBe(5);
    expect(errors).toEqual([]);
  });

  it('lists, inspects and discards a dead letter after a confirmation with a reason', async () => {
    const letters: DeadLetterStore = app.get(DEAD_LETTER_STORE);
    const letter = await letters.add({
      kind: 'event',
      subscriber: 'meter-totals',
      aggregateType: 'meter',
      aggregateId: 'broken',
      messageType: 'MeterRead',
      payload: { value: -1, unit: 'W' },
      context: { position: 1 },
      reason: 'meter broken reads below zero',
      attempts: 5,
    });
    await page.click('#tabs button[data-panel="dead-letters"]');
    await untilCount(page, '#dead-letters tbody tr', 1);
    expect(await page.textContent('#dead-letters tbody tr')).toMatch(/event · meter-totals.*MeterRead.*meter\/broken.*meter broken reads below zero/s);
    await page.click(`#dead-letters tr[data-id="${letter.id}"] button:text("Inspect")`);
    await page.waitForSelector('#dead-letter-detail:not(.hidden)');
    expect(JSON.parse((await page.textContent('#dead-letter-detail'))!)).toMatchObject({ id: letter.id, payload: { value: -1 } });

    await page.click(`#dead-letters tr[data-id="${letter.id}"] button:text("Discard")`);
    await page.waitForSelector('#confirm[open]');
    await page.fill('#confirm-input', 'a test reading');
    await page.click('#confirm-ok');
    await untilCount(page, '#dead-letters tbody tr', 0);
    expect(await letters.get(letter.id)).toMatchObject({ status: 'discarded', reason: 'a test reading' });
  });

  it('finds an aggregate: its state and its events, and counts the event types', async () => {
    await page.click('#tabs button[data-panel="streams"]');
    await page.waitForSelector('#stream-type option[value="meter"]', { state: 'attached' });
    await page.fill('#stream-id', 'kitchen');
    await page.click('#stream-find button[type="submit"]');
    await untilCount(page, '#stream-events tbody tr', 1);
    expect(await page.textContent('#stream-title')).toBe('meter/kitchen at sequence 1');
    expect(JSON.parse((await page.textContent('#stream-state-json'))!)).toEqual({ total: 3, readings: 1 });
    expect(await page.textContent('#stream-events tbody tr')).toMatch(/MeterRead v2.*"value": 3.*as stored/s);

    await page.click('#tabs button[data-panel="event-types"]');
    await page.click('#event-types-count');
    await untilCount(page, '#event-types tbody tr', 1);
    expect(await page.textContent('#event-types tbody tr')).toMatch(/MeterRead.*2.*2.*current/s);
    expect(errors).toEqual([]);
  });
});
