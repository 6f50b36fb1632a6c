import { existsSync, mkdirSync } from 'node:fs';
import type { INestApplication } from '@nestjs/common';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CommandGateway } from '@nest-es/core';
import { DEAD_LETTER_STORE, type DeadLetterStore } from '@nest-es/core/internal';
import { ADMIN_TOKEN, MeterTotalsProjector, Read, startConsoleApp } from './support/console-app.js';
import { MeterReadingsProjector, startConsoleReadingsApp, type MeterReading } from './support/console-readings-app.js';
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

/** Until some element matching `selector` has text matching `pattern`. */
function untilText(target: Page, selector: string, pattern: RegExp, timeout = 15_000) {
  return target.waitForFunction(
    ([query, source]) =>
      Array.prototype.some.call((globalThis as unknown as { document: PageDocument }).document.querySelectorAll(query), (node: { textContent: string | null }) =>
        new RegExp(source).test(node.textContent ?? ''),
      ),
    [selector, pattern.source] as [string, string],
    { timeout },
  );
}

function launchChromium(): Promise<Browser> {
  // Fails, never skips: the page is part of the product.
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: install it (apt-get install -y chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
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
    browser = await launchChromium();
    store = await createTestStore();
    ({ app, url } = await startConsoleApp(store.options, 'express'));
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

    // The subscribers panel is pushed: no request for the JSON view while it is open, only the live feed.
    const polls: string[] = [];
    page.on('request', (request) => {
      if (/\/console\/api\/subscribers(\/live)?$/.test(request.url())) polls.push(request.url().replace(/^.*\/api/, ''));
    });
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
    // The attempts above arrived by push, over the one feed opened at sign-in.
    expect(polls).toEqual(['/subscribers/live']);
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

/**
 * A blue/green rebuild from the console while commands keep coming and a reader keeps reading: the
 * read route never fails, the panel follows the build to its switch, the switched table holds every
 * reading (those sent during the build too), and Switch back puts the previous table back.
 */
describe('the console\u2019s projections panel', () => {
  let store: TestStore;
  let app: INestApplication;
  let url: string;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  /** Per meter, every reading sent, and the total of those sent once the fixed code was on. */
  const sent = new Map<string, { readings: number; total: number; fixedTotal: number }>();
  let gateway: CommandGateway;

  async function send(meterId: string, value: number): Promise<void> {
    await gateway.send(new Read(meterId, value));
    const meter = sent.get(meterId) ?? { readings: 0, total: 0, fixedTotal: 0 };
    meter.readings++;
    meter.total += value;
    if (MeterReadingsProjector.sumTotals) meter.fixedTotal += value;
    sent.set(meterId, meter);
  }

  async function readings(): Promise<MeterReading[]> {
    const response = await fetch(`${url}/meter-readings`);
    expect(response.status).toBe(200);
    return (await response.json()) as MeterReading[];
  }

  /** Until the read route shows every reading sent, with the totals `total` says each meter has. */
  async function untilRead(total: (meter: { total: number; fixedTotal: number }) => number): Promise<void> {
    const wanted = [...sent].sort(([a], [b]) => a.localeCompare(b)).map(([meterId, meter]) => ({ meterId, readings: meter.readings, total: total(meter) }));
    const deadline = Date.now() + 15_000;
    for (;;) {
      const rows = await readings();
      if (JSON.stringify(rows) === JSON.stringify(wanted) || Date.now() > deadline) return expect(rows).toEqual(wanted);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeAll(async () => {
    browser = await launchChromium();
    store = await createTestStore();
    ({ app, url } = await startConsoleReadingsApp(store.options));
    gateway = app.get(CommandGateway);
    page = await browser.newPage({ viewport: { width: 1100, height: 520 } });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
  });

  afterAll(async () => {
    MeterReadingsProjector.sumTotals = false;
    MeterReadingsProjector.delayMs = { live: 0, copy: 0 };
    await browser?.close();
    await app?.close();
    await store?.cleanup();
  });

  it('rebuilds a projector blue/green while commands flow and readers read, never failing a read, then switches back', async () => {
    // The old code's table: readings counted, totals left at 0. 'cellar' is read before the rebuild only.
    for (let i = 0; i < 240; i++) await send(['cellar', 'kitchen', 'attic'][i % 3], (i % 7) + 1);
    await untilRead(() => 0);

    await page.goto(`${url}/console`);
    await page.fill('#token', ADMIN_TOKEN);
    await page.click('#use-token');
    await page.click('#tabs button[data-panel="projections"]');
    await page.waitForSelector('tr[data-projector="meter-readings"] button.rebuild-projection');
    expect(await page.textContent('tr[data-projector="meter-totals"]')).toMatch(/not rebuildable blue\/green/);
    expect(await page.$('tr[data-projector="meter-totals"] button')).toBeNull();
    expect(await page.$('tr[data-projector="meter-readings"] button.switch-back')).toBeNull();

    // The fixed code, and a slow copy (about 3 s for the 240 stored readings) so the build can be watched.
    MeterReadingsProjector.sumTotals = true;
    MeterReadingsProjector.delayMs = { live: 2, copy: 12 };
    let flowing = true;
    const commands = (async () => {
      for (let i = 0; flowing; i++) {
        await send(['kitchen', 'attic', 'garage'][i % 3], (i % 5) + 1);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const statuses: number[] = [];
    const counted: number[] = [];
    const reads = (async () => {
      while (flowing) {
        const response = await fetch(`${url}/meter-readings`);
        statuses.push(response.status);
        const rows = (await response.json()) as MeterReading[] | unknown;
        counted.push(Array.isArray(rows) ? rows.reduce((sum: number, row: MeterReading) => sum + row.readings, 0) : -1);
      }
    })();

    try {
      await page.click('tr[data-projector="meter-readings"] button.rebuild-projection');
      await page.waitForSelector('#confirm[open]');
      expect(await page.textContent('#confirm-text')).toMatch(/Rebuild meter-readings blue\/green\? A copy of meter_readings/);
      const started = page.waitForResponse((response) => response.url().endsWith('/console/api/projections/rebuild'));
      await page.click('#confirm-ok');
      expect((await started).status()).toBe(202);
      await untilText(page, '#status', /Blue\/green rebuild of meter-readings started \(copy b\w+\)/);
      await untilText(page, 'tr[data-projector="meter-readings"] .rebuild-progress', /building · copy b\w+ · position \d+ \/ target [1-9]\d* · lag \d+/);
      await untilText(page, 'tr[data-projector="meter-readings"] .last-outcome', /switched at #\d+/, 30_000);
    } finally {
      flowing = false;
      await Promise.all([commands, reads]);
    }

    // Every read answered, and none went back: the switched-in copy had caught up with the live table.
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((status) => status < 200 || status > 299)).toEqual([]);
    const back = counted.findIndex((count, i) => i > 0 && count < counted[i - 1]);
    expect(back === -1 ? 'never' : `readings ${counted[back - 1]} then ${counted[back]}`).toBe('never');
    expect(sent.get('garage')?.readings).toBeGreaterThan(0);
    // The copy counted every total, 'cellar''s stored ones too; the live projector then went on from its checkpoint.
    await untilRead((meter) => meter.total);
    expect(await page.textContent('tr[data-projector="meter-readings"] .rebuild-progress')).toBe('—');

    await page.click('tr[data-projector="meter-readings"] button.switch-back');
    await page.waitForSelector('#confirm[open]');
    expect(await page.textContent('#confirm-text')).toMatch(/Switch meter-readings back to its previous tables\?/);
    const switched = page.waitForResponse((response) => response.url().endsWith('/console/api/projections/switch-back'));
    await page.click('#confirm-ok');
    expect((await switched).status()).toBe(200);
    await untilText(page, '#status', /meter-readings switched back; it goes on from position \d+\./);
    // The old table again, caught up by the live projector: totals only from the readings the fixed code saw.
    await untilRead((meter) => meter.fixedTotal);
    expect((await readings()).find((row) => row.meterId === 'cellar')).toMatchObject({ readings: 80, total: 0 });
    expect(errors).toEqual([]);
  });
});
