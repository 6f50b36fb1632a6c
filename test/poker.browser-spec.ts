import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { type PokerServer, startPokerServer } from './support/poker-server.js';
import { createTestStore, type TestStore } from './support/test-store.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT = 'test/artifacts/poker-page.png';

/** The web page in headless Chromium: a person sits down with two bots and plays a hand. */
describe('the poker web page', () => {
  let store: TestStore;
  let server: PokerServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    // Fails, never skips: the page is part of the product.
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: install it (apt-get install -y chromium)`);
    store = await createTestStore();
    server = await startPokerServer(store.options);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.app.close();
    await store?.cleanup();
  });

  it('creates players and a table, buys in, plays a hand against bots and shows the leaderboard', async () => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.client.baseUrl}/?seed=browser`);
    await page.fill('#name', 'Tess');
    await page.selectOption('#variant', 'TEXAS_HOLDEM');
    await page.selectOption('#bots', '2');
    await page.click('#create');
    await page.waitForSelector('#game:not(.hidden)', { timeout: 15_000 });
    await page.waitForFunction(`document.querySelectorAll('.seat').length === 3`, undefined, { timeout: 10_000 });
    expect(await page.textContent('#balance')).toContain('Bankroll 1000 · at the table 500 · available 500');

    await page.click('#deal');
    await page.waitForFunction(`document.querySelectorAll('#my-cards .card').length === 2`, undefined, { timeout: 10_000 });
    mkdirSync('test/artifacts', { recursive: true });
    let myTurns = 0;
    let shot = false;
    // Tess checks or calls whenever it is her turn; the page has the bots move in between. The
    // seed deals her to the flop: the screenshot shows her turn there, with the board and the pot.
    const deadline = Date.now() + 30_000;
    while (!(await page.isVisible('#deal'))) {
      if (Date.now() > deadline) throw new Error(`the hand did not end; the page shows: ${await page.textContent('#felt')}`);
      if (await page.isVisible('#actions')) {
        myTurns++;
        if (!shot && (await page.locator('#board .card').count()) >= 3) {
          expect(await page.textContent('#turn')).toMatch(/^Your turn/);
          expect(await page.textContent('#pot')).toMatch(/^Pot \d+$/);
          await page.screenshot({ path: SCREENSHOT, fullPage: true });
          shot = true;
        }
        await page.click('#check-call');
      }
      await page.waitForTimeout(100);
    }

    expect({ myTurns: myTurns > 1, shot }).toEqual({ myTurns: true, shot: true });
    await page.waitForFunction(`/wins \\d+/.test(document.querySelector('#result').textContent)`, undefined, { timeout: 10_000 });
    expect(await page.textContent('#phase')).toMatch(/Hand #1 · complete/);
    // The leaderboard counts the hand for everybody at the table.
    const playedOne = `[...document.querySelectorAll('#leaderboard tbody tr')].filter((row) => row.children[3].textContent === '1').length === 3`;
    await page.waitForFunction(playedOne, undefined, { timeout: 10_000 });
    const tessRow = await page.textContent('#leaderboard tbody tr.mine');
    expect(tessRow).toMatch(/Tess/);
    expect(errors).toEqual([]);
  });

  it('keeps the player signed in and seated across a reload', async () => {
    const stack = await page.textContent('.seat.mine .stack');
    await page.reload();
    await page.waitForSelector('#game:not(.hidden)', { timeout: 15_000 });
    await page.waitForFunction(`document.querySelectorAll('.seat').length === 3`, undefined, { timeout: 10_000 });
    expect(await page.textContent('#message')).toBe('Welcome back: you are still seated.');
    expect(await page.textContent('.seat.mine .who')).toContain('Tess');
    expect(await page.textContent('.seat.mine .stack')).toBe(stack);
    expect(await page.textContent('#balance')).toMatch(/at the table [1-9]\d*/);
    // Still her seat to play from: the next hand deals her cards.
    await page.click('#deal');
    await page.waitForFunction(`document.querySelectorAll('#my-cards .card').length === 2`, undefined, { timeout: 10_000 });
  });

  it('says so and asks to sign in again when the kept token no longer holds', async () => {
    await page.evaluate(`(() => {
      const session = JSON.parse(localStorage.getItem('poker.session'));
      localStorage.setItem('poker.session', JSON.stringify({ ...session, token: session.token + 'x' }));
    })()`);
    await page.reload();
    await page.waitForFunction(`document.querySelector('#message').textContent.includes('sign in again')`, undefined, { timeout: 10_000 });
    expect(await page.isVisible('#setup')).toBe(true);
    expect(await page.evaluate(`localStorage.getItem('poker.session')`)).toBeNull();
  });
});
