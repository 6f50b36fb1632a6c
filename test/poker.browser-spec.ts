import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { EVENT_STORE, type EventStore } from '@nest-es/core';
import { type PokerServer, startPokerServer } from './support/poker-server.js';
import { createTestStore, type TestStore } from './support/test-store.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT = 'test/artifacts/poker-page.png';
/** The pace the tests give the bots (`?botDelayMs=`): fast, but slow enough to tell from no wait at all. */
const BOT_DELAY_MS = 150;

/** What the waits read of the page. They run in it as functions: its CSP forbids evaluating a string. */
interface PageDocument {
  querySelectorAll(selector: string): ArrayLike<{ children: ArrayLike<{ textContent: string | null }> }>;
  querySelector(selector: string): { textContent: string | null } | null;
}

/** Until the page has `count` elements matching `selector`. */
function untilCount(target: Page, selector: string, count: number) {
  return target.waitForFunction(
    ([query, n]) => (globalThis as unknown as { document: PageDocument }).document.querySelectorAll(query).length === n,
    [selector, count] as [string, number],
    { timeout: 10_000 },
  );
}

/** Until the text of the element matching `selector` matches `pattern` (a RegExp source). */
function untilText(target: Page, selector: string, pattern: string) {
  return target.waitForFunction(
    ([query, source]) => new RegExp(source).test((globalThis as unknown as { document: PageDocument }).document.querySelector(query)?.textContent ?? ''),
    [selector, pattern] as [string, string],
    { timeout: 10_000 },
  );
}

/** The web page in headless Chromium: a person sits down with bots, plays a hand, leaves. */
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
    await page.goto(`${server.client.baseUrl}/?seed=browser&botDelayMs=${BOT_DELAY_MS}`);
    await page.fill('#name', 'Tess');
    await page.selectOption('#variant', 'TEXAS_HOLDEM');
    await page.selectOption('#bots', '2');
    await page.click('#create');
    await page.waitForSelector('#game:not(.hidden)', { timeout: 15_000 });
    await untilCount(page, '.seat', 3);
    expect(await page.textContent('#balance')).toContain('Bankroll 1000 · at the table 500 · available 500');

    await page.click('#deal');
    await untilCount(page, '#my-cards .card', 2);
    mkdirSync('test/artifacts', { recursive: true });
    let myTurns = 0;
    let shot = false;
    // Tess checks or calls whenever it is her turn; the server has the bots move in between. The
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
      // At the showdown the turn comes to her only with a hand that cannot win: she mucks it.
      if (await page.isVisible('#showdown-controls')) await page.click('#muck');
      await page.waitForTimeout(100);
    }

    expect({ myTurns: myTurns > 1, shot }).toEqual({ myTurns: true, shot: true });
    await untilText(page, '#result', 'wins \\d+');
    expect(await page.textContent('#phase')).toMatch(/Hand #1 · complete/);
    // The leaderboard counts the hand for everybody at the table.
    await page.waitForFunction(
      () =>
        Array.from((globalThis as unknown as { document: PageDocument }).document.querySelectorAll('#leaderboard tbody tr')).filter((row) => row.children[3].textContent === '1')
          .length === 3,
      undefined,
      { timeout: 10_000 },
    );
    const tessRow = await page.textContent('#leaderboard tbody tr.mine');
    expect(tessRow).toMatch(/Tess/);
    expect(errors).toEqual([]);
  });

  it('keeps the player signed in and seated across a reload', async () => {
    const stack = await page.textContent('.seat.mine .stack');
    await page.reload();
    await page.waitForSelector('#game:not(.hidden)', { timeout: 15_000 });
    await untilCount(page, '.seat', 3);
    expect(await page.textContent('#message')).toBe('Welcome back: you are still seated.');
    expect(await page.textContent('.seat.mine .who')).toContain('Tess');
    expect(await page.textContent('.seat.mine .stack')).toBe(stack);
    expect(await page.textContent('#balance')).toMatch(/at the table [1-9]\d*/);
    // Still her seat to play from: the next hand deals her cards.
    await page.click('#deal');
    await untilCount(page, '#my-cards .card', 2);
  });

  it('says so and asks to sign in again when the kept token no longer holds', async () => {
    await page.evaluate(`(() => {
      const session = JSON.parse(localStorage.getItem('poker.session'));
      localStorage.setItem('poker.session', JSON.stringify({ ...session, token: session.token + 'x' }));
    })()`);
    await page.reload();
    await untilText(page, '#message', 'sign in again');
    expect(await page.isVisible('#setup')).toBe(true);
    expect(await page.evaluate(`localStorage.getItem('poker.session')`)).toBeNull();
  });

  /** A fresh browser (nothing kept) signs up `name` with `bots` bots and buys everyone in. */
  async function sitDown(name: string, bots: string, query: string): Promise<Page> {
    const fresh = await browser.newPage({ viewport: { width: 1280, height: 820 } });
    await fresh.goto(`${server.client.baseUrl}/?${query}`);
    await fresh.fill('#name', name);
    await fresh.selectOption('#bots', bots);
    await fresh.click('#create');
    await fresh.waitForSelector('#game:not(.hidden)', { timeout: 15_000 });
    await untilCount(fresh, '.seat', Number(bots) + 1);
    return fresh;
  }

  const sessionOf = async (of: Page) => (await of.evaluate(`JSON.parse(localStorage.getItem('poker.session'))`)) as { me: string; token: string; tableId: string; botTokens: Record<string, string> };

  it('leaves the table with the Leave button: everyone at it is settled, chips back in the bankrolls', async () => {
    const own = await sitDown('Uma', '2', `seed=leave&botDelayMs=${BOT_DELAY_MS}`);
    const { me, token, tableId, botTokens } = await sessionOf(own);
    expect(await own.isVisible('#leave')).toBe(true);
    await own.click('#deal');
    // No leaving during a hand: the button is back once the hand is over.
    await own.waitForSelector('#leave', { state: 'hidden', timeout: 10_000 });
    const deadline = Date.now() + 30_000;
    while (!(await own.isVisible('#deal'))) {
      if (Date.now() > deadline) throw new Error(`the hand did not end; the page shows: ${await own.textContent('#felt')}`);
      if (await own.isVisible('#actions')) await own.click('#fold');
      await own.waitForTimeout(100);
    }
    await own.click('#leave');
    await own.waitForSelector('#setup:not(.hidden)', { timeout: 15_000 });
    const tokens: Record<string, string> = { [me]: token, ...botTokens };
    const balanceOf = (id: string) => server.client.request<{ bankroll: number; reserved: number }>('GET', `/players/${id}/balance`, undefined, { Authorization: `Bearer ${tokens[id]}` });
    const balances = await Promise.all(Object.keys(tokens).map(balanceOf));
    expect(balances.map((b) => b.reserved)).toEqual([0, 0, 0]);
    expect(balances.reduce((sum, b) => sum + b.bankroll, 0)).toBe(3000);
    expect(await own.textContent('#message')).toBe(`You left the table. Bankroll ${balances[0].bankroll}.`);
    expect(await own.textContent('#left-balance')).toBe(`Bankroll ${balances[0].bankroll} · at the table 0 · available ${balances[0].bankroll}`);
    expect((await server.client.table(tableId)).seats).toEqual([]);
    await own.close();
  });

  it('pushes every move to both players: two pages play a hand with no polling request after they connect', async () => {
    const ann = await sitDown('Ann', '1', `seed=two-pages&botDelayMs=${BOT_DELAY_MS}`);
    const { tableId } = await sessionOf(ann);
    const bob = await browser.newPage({ viewport: { width: 1280, height: 820 } });
    await bob.goto(`${server.client.baseUrl}/?table=${encodeURIComponent(tableId)}`);
    await bob.fill('#name', 'Bob');
    await bob.click('#create');
    await bob.waitForSelector('#game:not(.hidden)', { timeout: 15_000 });
    // Bob's buy-in reaches Ann's page by itself.
    await untilCount(ann, '.seat', 3);
    await untilCount(bob, '.seat', 3);

    // From here on each page may only send its own moves: no GET, no polling.
    const sent: string[] = [];
    for (const [who, page] of [['ann', ann], ['bob', bob]] as const) page.on('request', (request) => sent.push(`${who} ${request.method()} ${new URL(request.url()).pathname}`));
    const turnOf = (page: Page) => page.textContent('#turn');
    const delays: number[] = [];
    await ann.click('#deal');
    await untilCount(bob, '#my-cards .card', 2);
    const deadline = Date.now() + 60_000;
    while (!((await ann.isVisible('#deal')) && (await bob.isVisible('#deal')))) {
      if (Date.now() > deadline) throw new Error(`the hand did not end; Ann's page shows: ${await ann.textContent('#felt')}`);
      for (const [page, other] of [[ann, bob], [bob, ann]] as const) {
        const control = (await page.isVisible('#actions')) ? '#check-call' : (await page.isVisible('#showdown-controls')) ? '#muck' : undefined;
        if (!control) continue;
        const before = await turnOf(other);
        const answered = page.waitForResponse((response) => response.request().method() === 'POST');
        await page.click(control);
        await answered;
        // The move reaches the other page with no request of its own: pushed.
        const movedAt = Date.now();
        await other.waitForFunction(
          ([text]) => (globalThis as unknown as { document: PageDocument }).document.querySelector('#turn')?.textContent !== text,
          [before] as [string | null],
          { timeout: 5_000 },
        );
        delays.push(Date.now() - movedAt);
      }
      await ann.waitForTimeout(50);
    }
    expect(delays.length).toBeGreaterThan(0);
    expect(sent.filter((request) => !/ POST \/commands\/(hand|table)\//.test(request))).toEqual([]);
    console.log(`poker page push: ${delays.length} moves seen by the other page, max ${Math.max(...delays)} ms after the move was answered`);
    expect(Math.max(...delays)).toBeLessThan(1_000);
    await bob.close();
    await ann.close();
  });

  it('lets the bots finish the hand at their pace after the page is closed', async () => {
    const own = await sitDown('Vic', '3', `seed=closed&botDelayMs=${BOT_DELAY_MS}&actionTimeoutMs=2000`);
    const { tableId } = await sessionOf(own);
    await own.click('#deal');
    await untilCount(own, '#my-cards .card', 2);
    await own.close();
    const closedAt = Date.now();

    // Nobody polls now: the server plays the bots (and checks or folds for Vic when his time runs out).
    const { hand } = await server.client.table(tableId);
    const handId = hand!.handId;
    let ended = false;
    while (!ended && Date.now() - closedAt < 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      ended = (await server.client.table(tableId)).hand?.phase === 'COMPLETE';
    }
    expect({ handId, ended }).toEqual({ handId, ended: true });
    const events = await server.app.get<EventStore>(EVENT_STORE).readStream({ aggregateType: 'hand', aggregateId: handId });
    const botMoves = events.filter((event, i) => i > 0 && event.type === 'ActionTaken' && (event.payload as { playerId: string }).playerId.startsWith('bot-'));
    expect(botMoves.length).toBeGreaterThan(0);
    // Each bot moved no sooner than the pace after its turn came.
    const early = botMoves.filter((move) => move.occurredAt.getTime() - events[events.indexOf(move) - 1].occurredAt.getTime() < BOT_DELAY_MS);
    expect(early).toEqual([]);
  });
});
