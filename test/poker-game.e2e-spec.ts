import { EVENT_STORE, type EventStore } from '@nest-es/core';
import { TIMER_STORE } from '@nest-es/core/internal';
import { type TimerStore } from '@nest-es/core/adapter';
import { bestHandFor, type Card, compareHands, shuffledDeck, type Variant, VARIANTS } from '../apps/poker/src/cards/index.js';
import { PokerApiError } from '../apps/poker/src/client/poker-client.js';
import type { ActionTimeout } from '../apps/poker/src/flows/index.js';
import type { BuyInOutcome } from '../apps/poker/src/http/buy-in.dto.js';
import type { LeaderboardPage } from '../apps/poker/src/read-models/index.js';
import { checkOrCall, eventually, foldToOne, playOut } from './support/poker-server.js';
import { usePokerServer } from './support/poker-server-suite.js';

interface WireEvent {
  type: string;
  sequence: number;
  payload: Record<string, any>;
  metadata: Record<string, any>;
}

describe('poker over HTTP: hands, flows and read models', () => {
  const suite = usePokerServer();
  let tables = 0;

  /** Straight from the store: hand events hold the deck, which no route serves. */
  const events = async (aggregateType: string, id: string): Promise<WireEvent[]> =>
    (await suite.server.app.get<EventStore>(EVENT_STORE).readStream({ aggregateType, aggregateId: id })) as unknown as WireEvent[];

  /** A process manager's own events, by instance key (its stream is not an aggregate the HTTP routes serve). */
  const processEvents = async (name: string, key: string): Promise<string[]> =>
    (await suite.server.app.get<EventStore>(EVENT_STORE).readStream({ aggregateType: name, aggregateId: key })).map((e) => e.type);

  /** A new table with `players` (humans, 1000 deposited, 500 bought in, seats in order). */
  async function tableWith(variant: Variant, players: string[], terms: { actionTimeoutMs?: number; maxPlayers?: number } = {}): Promise<{ tableId: string; ids: string[] }> {
    const tableId = `table-${++tables}`;
    await suite.client.createTable(tableId, { name: `Table ${tables}`, variant, smallBlind: 5, bigBlind: 10, minBuyIn: 100, maxBuyIn: 1000, maxPlayers: terms.maxPlayers ?? 6, ...terms });
    const ids = players.map((name) => `${name}-${tables}`);
    for (const [seat, id] of ids.entries()) {
      await suite.client.registerPlayer(id, id);
      expect(await suite.client.buyIn(tableId, id, 500, seat)).toMatchObject({ status: 'COMPLETED', seat });
    }
    return { tableId, ids };
  }

  const stackSum = (view: { seats: Array<{ stack: number }> }) => view.seats.reduce((sum, seat) => sum + seat.stack, 0);

  describe.each(VARIANTS)('%s', (variant) => {
    it('plays a hand to the showdown: everyone still in shows, the best hand takes the pot', async () => {
      const { tableId, ids } = await tableWith(variant, ['ann', 'ben', 'cat']);
      const { handId } = await suite.client.startHand(tableId, `showdown-${variant}`);
      const view = await playOut(suite.client, tableId, checkOrCall);

      const hand = await events('hand', handId);
      const revealed = hand.filter((e) => e.type === 'CardsRevealed').map((e) => e.payload);
      expect(revealed.map((r) => r.playerId).sort()).toEqual([...ids].sort());
      const board: Card[] = view.hand!.communityCards;
      expect(board).toHaveLength(variant === 'FIVE_CARD_DRAW' ? 0 : 5);
      const scores = revealed.map((r) => ({ playerId: r.playerId as string, score: bestHandFor(variant, r.cards, board).score }));
      const top = Math.max(...scores.map((s) => s.score));
      const awards: Array<{ playerId: string; amount: number }> = hand.find((e) => e.type === 'PotAwarded')!.payload.awards;
      expect(awards.map((a) => a.playerId).sort()).toEqual(scores.filter((s) => s.score === top).map((s) => s.playerId).sort());
      expect(awards.reduce((sum, a) => sum + a.amount, 0)).toBe(30);
      expect(hand.map((e) => e.type)).toContain('HandComplete');
      expect(view.hand!.players.every((p) => p.shown !== null)).toBe(true);
      expect(stackSum(view)).toBe(1500);
      // The hand flow, keyed by the hand id, followed it all, whatever correlation ids the moves came with.
      const flow = await processEvents('hand-flow', handId);
      expect([flow[0], flow.at(-1)]).toEqual(['HandFlowStarted', 'HandFlowCompleted']);
      expect(flow.filter((type) => type === 'HandShown')).toHaveLength(ids.length);
    });

    it('ends a hand when all but one fold: the last player standing wins without a contest', async () => {
      const { tableId, ids } = await tableWith(variant, ['dan', 'eve', 'fay']);
      const { handId } = await suite.client.startHand(tableId);
      const view = await playOut(suite.client, tableId, foldToOne);

      // Three players: the dealer (seat 0) acts first and folds, then the small blind; the big blind wins.
      const bigBlind = ids[2];
      const hand = await events('hand', handId);
      expect(hand.find((e) => e.type === 'PotAwarded')!.payload.awards).toEqual([{ playerId: bigBlind, amount: 15 }]);
      // Uncontested: the winner shows no card, in the hand's events or in what anyone else sees.
      expect(hand.filter((e) => e.type === 'CardsRevealed' || e.type === 'CardsMucked')).toEqual([]);
      expect(hand.some((e) => e.type === 'CommunityCardsDealt' || e.type === 'DrawCompleted')).toBe(false);
      expect(view.hand!.players.map((p) => [p.shown, p.ranking])).toEqual(ids.map(() => [null, null]));
      const asLoser = await suite.client.table(tableId, ids[0]);
      expect(asLoser.hand!.players.find((p) => p.playerId === bigBlind)!.shown).toBeNull();
      const state = await suite.client.request<{ state: { players: Array<{ playerId: string; holeCards: string[] | null }> } }>('GET', `/aggregates/hand/${handId}`, undefined, suite.client.signedAs(ids[0]));
      expect(state.state.players.find((p) => p.playerId === bigBlind)!.holeCards).toBeNull();
      expect(view.seats.map((s) => [s.playerId, s.stack])).toEqual([
        [ids[0], 500],
        [ids[1], 495],
        [ids[2], 505],
      ]);
      const board = await suite.client.leaderboard();
      expect(board.find((entry) => entry.playerId === bigBlind)).toMatchObject({ netWinnings: 5, handsPlayed: 1, handsWon: 1 });
      expect(board.find((entry) => entry.playerId === ids[1])).toMatchObject({ netWinnings: -5, handsPlayed: 1, handsWon: 0 });
    });
  });

  it('folds a player facing a bet who lets the action timeout pass, and checks one with nothing to call', async () => {
    const { tableId, ids } = await tableWith('TEXAS_HOLDEM', ['gil', 'hal'], { actionTimeoutMs: 1000 });
    const [gil, hal] = ids;
    const timers = suite.server.app.get<TimerStore>(TIMER_STORE);

    // Hand 1, heads-up: gil deals and posts the small blind, acts first facing 5 more, and does nothing.
    const first = await suite.client.startHand(tableId);
    await eventually(() => suite.client.table(tableId), (view) => view.status === 'waiting', 'hand 1 ends by the timeout');
    const hand1 = await events('hand', first.handId);
    expect(hand1.filter((e) => e.type === 'ActionTaken').map((e) => e.payload)).toEqual([expect.objectContaining({ playerId: gil, action: 'FOLD', amount: 0 })]);
    expect(hand1.find((e) => e.type === 'PotAwarded')!.payload.awards).toEqual([{ playerId: hal, amount: 15 }]);

    // Hand 2: hal deals and calls in time; his timer is cancelled and gil's runs.
    const second = await suite.client.startHand(tableId);
    await suite.client.act(tableId, hal, 'CALL');
    const pending = await timers.pending('hand-flow', second.handId);
    expect(pending.map((timer) => (timer.payload as ActionTimeout).playerId)).toEqual([gil]);
    expect(pending[0].payload).toMatchObject({ amountToCall: 0 });

    // gil lets it pass with nothing to call: checked, and the flop comes.
    const flop = await eventually(() => suite.client.table(tableId), (view) => view.hand!.phase === 'FLOP', 'the flop after the automatic check');
    expect(flop.hand!.communityCards).toHaveLength(3);
    const checks = (await events('hand', second.handId)).filter((e) => e.type === 'ActionTaken').map((e) => [e.payload.playerId, e.payload.action]);
    expect(checks).toEqual([
      [hal, 'CALL'],
      [gil, 'CHECK'],
    ]);
    const view = await playOut(suite.client, tableId, checkOrCall);
    expect(stackSum(view)).toBe(1000);
    expect(await timers.pending('hand-flow', second.handId)).toEqual([]);
  });

  describe('buying in', () => {
    let tableId: string;

    beforeAll(async () => {
      ({ tableId } = await tableWith('TEXAS_HOLDEM', ['ida']));
      for (const id of ['joe', 'kim', 'lou']) await suite.client.registerPlayer(id, id);
    });

    const expectReleased = async (playerId: string) => {
      expect(await suite.client.balance(playerId)).toEqual({ playerId, bankroll: 1000, reserved: 0, available: 1000 });
      const playerEvents = (await events('player', playerId)).map((e) => e.type);
      expect(playerEvents.slice(-2)).toEqual(['FundsReserved', 'FundsReleased']);
    };

    it('reserves the funds, seats the player and completes', async () => {
      const outcome = await suite.client.buyIn(tableId, 'joe', 300, 3);
      expect(outcome).toMatchObject({ playerId: 'joe', tableId, seat: 3, amount: 300, status: 'COMPLETED' });
      expect(await suite.client.balance('joe')).toEqual({ playerId: 'joe', bankroll: 1000, reserved: 300, available: 700 });
      expect(await processEvents('buy-in', outcome.buyInId)).toEqual(['BuyInInitiated', 'BuyInCompleted']);
      expect((await suite.client.table(tableId)).seats.find((s) => s.playerId === 'joe')).toEqual({ seat: 3, playerId: 'joe', stack: 300, sittingOut: false });
    });

    it.each([
      ['INVALID_AMOUNT', { amount: 50, seat: -1 }, "buy-in 50 is outside the table's range [100, 1000]"],
      ['SEAT_OCCUPIED', { amount: 200, seat: 3 }, 'seat 3 is occupied by joe'],
      ['SEATING_REJECTED', { amount: 200, seat: 7 }, 'seat 7 does not exist: this table has seats 0 to 5'],
    ])('fails with %s and releases the funds', async (code, request, reason) => {
      const outcome = await suite.client.buyIn(tableId, 'kim', request.amount, request.seat);
      expect(outcome).toMatchObject({ status: 'FAILED', code, reason });
      expect(await processEvents('buy-in', outcome.buyInId)).toEqual(['BuyInInitiated', 'BuyInFailed']);
      await expectReleased('kim');
    });

    it('fails with TABLE_FULL when every seat is taken', async () => {
      const small = await tableWith('OMAHA', ['mo', 'ned'], { maxPlayers: 2 });
      expect(await suite.client.buyIn(small.tableId, 'lou', 200)).toMatchObject({ status: 'FAILED', code: 'TABLE_FULL', reason: 'table is full: 2 of 2 seats taken' });
      await expectReleased('lou');
    });

    it('fails with SEATING_REJECTED when the table refuses the seat', async () => {
      expect(await suite.client.buyIn('no-such-table', 'lou', 200)).toMatchObject({ status: 'FAILED', code: 'SEATING_REJECTED', reason: 'table does not exist' });
      await expectReleased('lou');
    });

    it('answers at once when the funds cannot be reserved, or the request is malformed', async () => {
      const poor = await suite.client.buyIn(tableId, 'lou', 5000).catch((error: PokerApiError) => error);
      expect(poor).toMatchObject({ status: 409, body: { code: 'FAILED_PRECONDITION', message: 'insufficient funds: available 1000, requested 5000' } });
      const malformed = await suite.client.request('POST', `/tables/${tableId}/buy-in`, { playerId: 'lou', seat: 12, amount: -1 }, suite.client.signedAs('lou')).catch((error: PokerApiError) => error);
      expect(malformed).toMatchObject({ status: 400, body: { code: 'INVALID_ARGUMENT' } });
      expect((malformed as PokerApiError).body.message).toMatch(/seat must be a seat from 0 to 9, or -1 for any free seat, got 12; amount must be a positive whole number of chips, got -1/);
    });
  });

  it('settles on leaving: the bankroll gets the stack back, winnings included; nobody leaves during a hand', async () => {
    const { tableId, ids } = await tableWith('TEXAS_HOLDEM', ['oli', 'pat', 'quin']);
    await suite.client.startHand(tableId);
    const during = await suite.client.leave(tableId, ids[0]).catch((error: PokerApiError) => error);
    expect(during).toMatchObject({ status: 409, body: { code: 'FAILED_PRECONDITION' } });
    await playOut(suite.client, tableId, foldToOne);
    for (const id of ids) await suite.client.leave(tableId, id);
    const balances = await Promise.all(ids.map((id) => suite.client.balance(id)));
    expect(balances.map((b) => [b.bankroll, b.reserved, b.available])).toEqual([
      [1000, 0, 1000],
      [995, 0, 995],
      [1005, 0, 1005],
    ]);
    expect((await suite.client.table(tableId)).seats).toEqual([]);
    expect((await events('player', ids[2])).at(-1)).toMatchObject({ type: 'SessionSettled', payload: { tableId, reserved: 500, cashOut: 505, newBalance: 1005 } });
  });

  it('has the balance up to date when a Sync-Mode: simple command returns', async () => {
    await suite.client.registerPlayer('rex', 'Rex');
    let bankroll = 1000;
    for (let i = 1; i <= 10; i++) {
      await suite.client.command('player', 'rex', 'WithdrawFunds', { amount: i }, { 'Sync-Mode': 'simple' });
      bankroll -= i;
      expect(await suite.client.balance('rex')).toEqual({ playerId: 'rex', bankroll, reserved: 0, available: bankroll });
    }
    expect(await suite.client.balance('nobody').catch((error: PokerApiError) => error.status)).toBe(401);
  });

  it('records sitting out as a fact on the table, so the next hand is dealt around the player', async () => {
    const { tableId, ids } = await tableWith('TEXAS_HOLDEM', ['ray', 'sue', 'tom']);
    await suite.client.command('player', ids[1], 'SitOut', {}, { 'Sync-Mode': 'cascade' });
    const satOut = (await events('table', tableId)).find((e) => e.type === 'PlayerSatOut')!;
    expect(satOut).toMatchObject({ payload: { playerId: ids[1] }, metadata: { externalId: expect.any(String) } });
    expect((await suite.client.table(tableId)).seats.map((s) => s.sittingOut)).toEqual([false, true, false]);
    const { handId } = await suite.client.startHand(tableId);
    expect((await events('hand', handId))[0].payload.players.map((p: { playerId: string }) => p.playerId).sort()).toEqual([ids[0], ids[2]].sort());
    await playOut(suite.client, tableId, foldToOne);
    await suite.client.command('player', ids[1], 'SitIn', {}, { 'Sync-Mode': 'cascade' });
    expect((await suite.client.table(tableId)).seats.map((s) => s.sittingOut)).toEqual([false, false, false]);
  });

  it('at the showdown, lets a losing player muck in turn once the first hand is shown', async () => {
    const { tableId, ids } = await tableWith('TEXAS_HOLDEM', ['uma', 'vin']);
    const [uma, vin] = ids;
    // Heads-up, uma deals: vin is dealt the 1st and 3rd cards, uma the 2nd and 4th, then the board.
    // Checked down, vin (left of the dealer) shows first; a seed where his hand beats hers.
    const beats = (deck: Card[]) => compareHands(bestHandFor('TEXAS_HOLDEM', [deck[0], deck[2]], deck.slice(4, 9)), bestHandFor('TEXAS_HOLDEM', [deck[1], deck[3]], deck.slice(4, 9))) > 0;
    let seed = 0;
    while (!beats(shuffledDeck(`muck-${seed}`))) seed++;
    const { handId } = await suite.client.startHand(tableId, `muck-${seed}`);
    const onTurn: string[] = [];
    const view = await playOut(suite.client, tableId, checkOrCall, (hand) => {
      onTurn.push(hand.actionOn!);
      return 'muck';
    });
    expect(onTurn).toEqual([uma]);
    const hand = await events('hand', handId);
    expect(hand.filter((e) => e.type === 'CardsRevealed' || e.type === 'CardsMucked').map((e) => [e.type, e.payload.playerId])).toEqual([
      ['CardsRevealed', vin],
      ['CardsMucked', uma],
    ]);
    expect(hand.find((e) => e.type === 'PotAwarded')!.payload.awards).toEqual([{ playerId: vin, amount: 20 }]);
    expect(view.hand!.players.map((p) => [p.playerId, p.shown !== null, p.mucked])).toEqual([
      [vin, true, false],
      [uma, false, true],
    ]);
    expect(stackSum(view)).toBe(1000);
  });

  describe('topping up', () => {
    const topUp = (tableId: string, playerId: string, amount: number, as = playerId) =>
      suite.client.request<BuyInOutcome>('POST', `/tables/${encodeURIComponent(tableId)}/top-up`, { playerId, amount }, suite.client.signedAs(as));

    it("adds chips from the bankroll to a seated player's stack between hands, up to the maxBuyIn, through the buy-in flow", async () => {
      const { tableId, ids } = await tableWith('TEXAS_HOLDEM', ['wes', 'xia']);
      const [wes, xia] = ids;
      const done = await topUp(tableId, wes, 300);
      expect(done).toMatchObject({ playerId: wes, tableId, seat: 0, amount: 300, status: 'COMPLETED' });
      expect(await processEvents('buy-in', done.buyInId)).toEqual(['BuyInInitiated', 'BuyInCompleted']);
      expect(await suite.client.balance(wes)).toEqual({ playerId: wes, bankroll: 1000, reserved: 800, available: 200 });
      expect((await suite.client.table(tableId)).seats.find((s) => s.playerId === wes)).toEqual({ seat: 0, playerId: wes, stack: 800, sittingOut: false });

      // Only between hands.
      await suite.client.startHand(tableId);
      const during = await topUp(tableId, xia, 100);
      expect(during).toMatchObject({ status: 'FAILED', code: 'SEATING_REJECTED', reason: expect.stringMatching(/cannot top up during hand .+: top up between hands$/) });
      expect(await suite.client.balance(xia)).toEqual({ playerId: xia, bankroll: 1000, reserved: 500, available: 500 });
      // wes deals, acts first and folds: xia wins his small blind.
      await playOut(suite.client, tableId, foldToOne);

      // Past the table's maxBuyIn: refused, and only the top-up is released; up to it, credited.
      const over = await topUp(tableId, xia, 496);
      expect(over).toMatchObject({ status: 'FAILED', code: 'INVALID_AMOUNT', reason: `a top-up of 496 would bring ${xia}'s stack of 505 to 1001, above the table's maxBuyIn 1000` });
      expect(await suite.client.balance(xia)).toEqual({ playerId: xia, bankroll: 1000, reserved: 500, available: 500 });
      expect(await topUp(tableId, xia, 495)).toMatchObject({ status: 'COMPLETED', seat: 1 });
      expect(await suite.client.balance(xia)).toEqual({ playerId: xia, bankroll: 1000, reserved: 995, available: 5 });
      expect((await suite.client.table(tableId)).seats.map((s) => s.stack)).toEqual([795, 1000]);

      // Leaving settles each stack against all the player brought to the table.
      for (const id of ids) await suite.client.leave(tableId, id);
      const balances = await Promise.all(ids.map((id) => suite.client.balance(id)));
      expect(balances.map((b) => b.reserved)).toEqual([0, 0]);
      expect(balances.reduce((sum, b) => sum + b.bankroll, 0)).toBe(2000);
    });

    it('refuses at once a player with no seat there, someone topping up another, and a malformed amount', async () => {
      const { tableId, ids } = await tableWith('OMAHA', ['yan']);
      await suite.client.registerPlayer(`zoe-${tables}`, 'Zoe');
      const unseated = await topUp(tableId, `zoe-${tables}`, 100).catch((error: PokerApiError) => error);
      expect(unseated).toMatchObject({ status: 409, body: { code: 'FAILED_PRECONDITION', message: `no funds are reserved for table ${tableId}: buy in before topping up` } });
      const other = await topUp(tableId, ids[0], 100, `zoe-${tables}`).catch((error: PokerApiError) => error);
      expect(other).toMatchObject({ status: 403, body: { code: 'PERMISSION_DENIED' } });
      const malformed = await topUp(tableId, ids[0], 0).catch((error: PokerApiError) => error);
      expect(malformed).toMatchObject({ status: 400, body: { code: 'INVALID_ARGUMENT', message: expect.stringMatching(/amount must be a positive whole number of chips, got 0/) } });
      expect(await suite.client.balance(ids[0])).toEqual({ playerId: ids[0], bankroll: 1000, reserved: 500, available: 500 });
    });
  });

  it('lets only a player seated at the table have its bots move: anyone else is refused with 403', async () => {
    const { tableId, ids } = await tableWith('TEXAS_HOLDEM', ['abe', 'bea']);
    const outsider = `cal-${tables}`;
    await suite.client.registerPlayer(outsider, 'Cal');
    await suite.client.startHand(tableId);
    const botsAct = (as: string) => suite.client.request<unknown[]>('POST', `/tables/${tableId}/bots/act`, {}, suite.client.signedAs(as));
    const refused = await botsAct(outsider).catch((error: PokerApiError) => error);
    expect(refused).toMatchObject({ status: 403, body: { code: 'PERMISSION_DENIED', message: `${outsider} is not seated at table ${tableId}: only its players may have its bots move` } });
    expect(await botsAct(ids[1])).toEqual([]);
    await playOut(suite.client, tableId, foldToOne);
  });

  it('serves the web page at / and the OpenAPI document at /docs', async () => {
    const page = await fetch(`${suite.client.baseUrl}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<title>[^<]*Poker/);
    expect((await fetch(`${suite.client.baseUrl}/docs`)).status).toBe(200);
    const document = await suite.client.request<{ paths: Record<string, unknown> }>('GET', '/docs-json');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/tables/{tableId}/buy-in', '/players/{playerId}/balance', '/leaderboard', '/tables/{tableId}', '/auth/register', '/commands/player/{aggregateId}/RenamePlayer']),
    );
  });

  describe('the leaderboard', () => {
    const page = (query: string, as?: string) => suite.client.request<LeaderboardPage>('GET', `/leaderboard${query}`, undefined, as ? suite.client.signedAs(as) : {});

    it('pages with limit and offset, bounded, and shows the signed-in player their own row and rank, on the page or not', async () => {
      for (const name of ['dax', 'eli', 'fox', 'gia']) await suite.client.registerPlayer(`${name}-board`, name);
      const all = await eventually(() => page('?limit=100'), (board) => board.entries.some((entry) => entry.playerId === 'gia-board'), 'the new players on the leaderboard');
      expect(all.total).toBe(all.entries.length);
      expect(all.entries.map((entry) => entry.rank)).toEqual(all.entries.map((_, i) => i + 1));
      expect(all.total).toBeGreaterThan(8);

      const second = await page('?limit=3&offset=2');
      expect(second).toEqual({ entries: all.entries.slice(2, 5), total: all.total, limit: 3, offset: 2, nextOffset: 5, you: null });
      expect(second.entries.map((entry) => entry.rank)).toEqual([3, 4, 5]);
      const last = await page(`?limit=3&offset=${all.total - 1}`);
      expect(last).toMatchObject({ entries: [all.entries.at(-1)], nextOffset: null });
      expect((await page('')).entries).toEqual(all.entries.slice(0, 20));

      // The last-ranked player, signed in, sees their own row with its rank, off the page.
      const bottom = all.entries.at(-1)!;
      const signed = suite.client.tokenOf(bottom.playerId) ? bottom : all.entries.findLast((entry) => suite.client.tokenOf(entry.playerId))!;
      expect(signed.rank).toBeGreaterThan(3);
      expect((await page('?limit=3', signed.playerId)).you).toEqual(signed);
      expect((await page(`?limit=1&offset=${signed.rank - 1}`, signed.playerId))).toMatchObject({ entries: [signed], you: signed });
    });

    it.each(['?limit=0', '?limit=101', '?limit=ten', '?offset=-1', '?offset=1.5', '?limit=1&limit=2'])('refuses %s with 400', async (query) => {
      const refused = await page(query).catch((error: PokerApiError) => error);
      expect(refused).toMatchObject({ status: 400, body: { code: 'INVALID_ARGUMENT', message: expect.stringMatching(/^(limit must be a whole number from 1 to 100|offset must be a whole number from 0 to \d+), given once; got /) } });
    });
  });
});
