// The poker page: plain JavaScript on the app's HTTP API, no build step. It signs the person up
// (a player token, kept in localStorage and sent as Authorization: Bearer), creates bots (AI players,
// each with its own token) and a table, buys everyone in, or joins a friend's table (`?table=<id>`),
// and then watches the table: the server pushes the table view, the leaderboard and the balance
// whenever they change (no polling). The server plays the bots at the table's pace, with or without
// this page open. Leave takes everyone off the
// table, which settles their chips back into their bankrolls. A reload finds the player and the seat
// again from what localStorage kept.

const $ = (selector) => document.querySelector(selector);
const SUITS = { s: '♠', h: '♥', d: '♦', c: '♣' };
const HOLE_CARDS = { TEXAS_HOLDEM: 2, OMAHA: 4, FIVE_CARD_DRAW: 5 };

const game = { me: null, token: null, tableId: null, names: {}, botTokens: {}, view: null, discards: new Set() };
const SESSION = 'poker.session';
// `?seed=x` deals reproducible hands (x-1, x-2, ...); `?botDelayMs=n` and `?actionTimeoutMs=n` set the
// pace of new tables (the bots' thinking time, and how long a player has before being checked or
// folded). The browser test uses them.
const params = new URLSearchParams(location.search);
const seed = params.get('seed');
// `?table=<id>`: sign in and join that table (a friend's invite) instead of creating one.
const joining = params.get('table');
const pace = Object.fromEntries(['botDelayMs', 'actionTimeoutMs'].filter((name) => params.has(name)).map((name) => [name, Number(params.get(name))]));

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** A call signed as `token` (by default our own player's). */
async function api(method, path, body, headers = {}, token = game.token) {
  const response = await fetch(path, {
    method,
    headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  const json = text ? JSON.parse(text) : null;
  if (response.status === 401 && token && token === game.token) signedOut();
  if (response.status === 403) throw new ApiError(403, `Not allowed: ${json?.message ?? 'permission denied'}`);
  if (!response.ok) throw new ApiError(response.status, json?.message ?? `HTTP ${response.status}`);
  return json;
}

function saveSession() {
  localStorage.setItem(SESSION, JSON.stringify({ me: game.me, token: game.token, tableId: game.tableId, names: game.names, botTokens: game.botTokens }));
}

/** Our token no longer holds (expired, or the server was restarted with another secret): sign in again. */
function signedOut() {
  localStorage.removeItem(SESSION);
  Object.assign(game, { me: null, token: null, tableId: null, view: null });
  $('#game').classList.add('hidden');
  $('#setup').classList.remove('hidden');
  $('#create').disabled = false;
  throw new ApiError(401, 'Your session has ended: sign in again to play.');
}

const command = (type, id, name, body, headers) => api('POST', `/commands/${type}/${encodeURIComponent(id)}/${name}`, body, headers);

function say(text, isError = false) {
  const message = $('#message');
  message.textContent = text;
  message.className = isError ? 'error' : '';
}

function uid() {
  return Math.random().toString(36).slice(2, 8);
}

/**
 * Signs a player up: the server gives the starting bankroll and the player's token. Under an
 * Idempotency-Key, so a sign-up cut short (a server error, a dropped connection) is sent once more
 * and finished rather than refused as a taken id.
 */
async function registerPlayer(id, displayName, playerType) {
  // getRandomValues, not randomUUID: the page may be served over plain http:// (no secure context).
  const key = Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
  const sign = () => api('POST', '/auth/register', { playerId: id, displayName, playerType }, { 'Idempotency-Key': key }, null);
  const session = await sign().catch((error) => {
    if (error instanceof ApiError && error.status < 500) throw error;
    return sign();
  });
  game.names[id] = displayName;
  return session.token;
}

async function createGame() {
  $('#create').disabled = true;
  try {
    const run = uid();
    const name = $('#name').value.trim() || 'Player';
    say('Signing in…');
    if (!game.token) {
      game.me = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'player'}-${run}`;
      game.token = await registerPlayer(game.me, name, 'HUMAN');
    }
    if (joining) return await joinTable(joining);
    game.tableId = `table-${run}`;
    saveSession();
    const bots = Number($('#bots').value);
    game.botTokens = {};
    for (let i = 1; i <= bots; i++) game.botTokens[`bot-${i}-${run}`] = await registerPlayer(`bot-${i}-${run}`, `Bot ${i}`, 'AI');
    say('Creating the table…');
    await command(
      'table',
      game.tableId,
      'CreateTable',
      { name: `Table of ${name}`, variant: $('#variant').value, smallBlind: 5, bigBlind: 10, minBuyIn: 100, maxBuyIn: 1000, maxPlayers: 6, actionTimeoutMs: 60000, ...pace },
      { 'Sync-Mode': 'simple' },
    );
    // Each player buys themselves in, with their own token.
    for (const [playerId, token] of [[game.me, game.token], ...Object.entries(game.botTokens)]) {
      const outcome = await api('POST', `/tables/${game.tableId}/buy-in`, { playerId, seat: -1, amount: 500 }, {}, token);
      if (outcome.status !== 'COMPLETED') throw new ApiError(409, `buy-in of ${playerId} failed: ${outcome.code} ${outcome.reason}`);
    }
    saveSession();
    showGame();
    say('Seated. Deal a hand!');
  } catch (error) {
    say(error.message, true);
    $('#create').disabled = false;
  }
}

/** A friend's table: we buy ourselves in, without bots. */
async function joinTable(tableId) {
  game.tableId = tableId;
  say('Buying in…');
  const outcome = await api('POST', `/tables/${encodeURIComponent(tableId)}/buy-in`, { playerId: game.me, seat: -1, amount: 500 });
  if (outcome.status !== 'COMPLETED') throw new ApiError(409, `buy-in failed: ${outcome.code} ${outcome.reason}`);
  saveSession();
  showGame();
  say('Seated. Deal a hand when everyone is in!');
}

function showGame() {
  $('#setup').classList.add('hidden');
  $('#game').classList.remove('hidden');
  $('#invite').textContent = `Invite a friend: ${location.origin}/?table=${encodeURIComponent(game.tableId)}`;
  watchTable();
}

/** After a reload: the kept token still holds and we still sit at the kept table, so play on. */
async function resume() {
  const kept = JSON.parse(localStorage.getItem(SESSION) ?? 'null');
  if (!kept?.token) return;
  Object.assign(game, { me: kept.me, token: kept.token, tableId: kept.tableId, names: kept.names ?? {}, botTokens: kept.botTokens ?? {} });
  try {
    const me = await api('GET', '/auth/me');
    $('#name').value = me.displayName;
    $('#whoami').textContent = `Signed in as ${me.displayName}`;
    const view = game.tableId ? await api('GET', `/tables/${encodeURIComponent(game.tableId)}`) : null;
    if (view?.seats.some((seat) => seat.playerId === game.me)) {
      showGame();
      say('Welcome back: you are still seated.');
    } else {
      game.tableId = null;
      saveSession();
    }
  } catch (error) {
    say(error.message, true);
  }
}

async function deal() {
  $('#deal').disabled = true;
  try {
    const body = seed ? { seed: `${seed}-${(game.view?.handCount ?? 0) + 1}` } : {};
    await command('table', game.tableId, 'StartHand', body, { 'Sync-Mode': 'cascade' });
    say('');
  } catch (error) {
    say(error.message, true);
  }
}

/** A move of ours in the current hand (the server files it under the hand's flow). */
async function play(name, body) {
  const hand = game.view.hand;
  try {
    await command('hand', hand.handId, name, { playerId: game.me, ...body }, { 'Sync-Mode': 'cascade' });
    game.discards.clear();
    say('');
  } catch (error) {
    say(error.message, true);
  }
}

function act(action) {
  const amount = Number($('#amount').value);
  return play('PlayerAction', action === 'BET' || action === 'RAISE' ? { action, amount } : { action });
}

/**
 * Between hands: more chips from our bankroll onto our stack, up to the table's maxBuyIn, through
 * the same reserve-then-credit flow as the buy-in.
 */
async function topUp() {
  $('#top-up').disabled = true;
  try {
    const amount = Number($('#top-up-amount').value);
    const outcome = await api('POST', `/tables/${encodeURIComponent(game.tableId)}/top-up`, { playerId: game.me, amount });
    if (outcome.status !== 'COMPLETED') throw new ApiError(409, `Top-up refused: ${outcome.reason ?? outcome.code}`);
    $('#top-up-amount').value = '';
    say(`Topped up ${amount}.`);
  } catch (error) {
    say(error.message, true);
  } finally {
    $('#top-up').disabled = false;
  }
}

/**
 * Between hands: we and our bots leave the table; leaving settles each one's chips into their
 * bankroll (CASCADE: settled when it returns). Then the page is back at the start.
 */
async function leave() {
  $('#leave').disabled = true;
  try {
    for (const [playerId, token] of Object.entries(game.botTokens)) {
      await api('POST', `/commands/table/${encodeURIComponent(game.tableId)}/LeaveTable`, { playerId }, { 'Sync-Mode': 'cascade' }, token);
    }
    await command('table', game.tableId, 'LeaveTable', { playerId: game.me }, { 'Sync-Mode': 'cascade' });
    stopWatching();
    const balance = await api('GET', `/players/${encodeURIComponent(game.me)}/balance`);
    Object.assign(game, { tableId: null, view: null, botTokens: {} });
    saveSession();
    $('#game').classList.add('hidden');
    $('#setup').classList.remove('hidden');
    $('#create').disabled = false;
    renderBalance(balance, '#left-balance');
    say(`You left the table. Bankroll ${balance.bankroll}.`);
  } catch (error) {
    say(error.message, true);
  } finally {
    $('#leave').disabled = false;
  }
}

/** Shows what the server pushed: the table, the leaderboard and our balance. */
function show({ table, leaderboard, balance }) {
  game.view = table;
  renderTable(table);
  renderMyCards(table);
  if (balance) renderBalance(balance);
  renderLeaderboard(leaderboard);
}

let watching = null;

function stopWatching() {
  watching?.abort();
  watching = null;
}

/**
 * Watches the table over server-sent events, read with fetch so that the token goes in the
 * Authorization header. The first message is the state now; after a dropped connection the page
 * connects again (waiting longer each time, up to 10 s) and gets the state as it is then.
 */
async function watchTable() {
  stopWatching();
  const controller = new AbortController();
  watching = controller;
  for (let delay = 500; !controller.signal.aborted; delay = Math.min(delay * 2, 10_000)) {
    try {
      const response = await fetch(`/tables/${encodeURIComponent(game.tableId)}/live`, {
        headers: { Accept: 'text/event-stream', ...(game.token ? { Authorization: `Bearer ${game.token}` } : {}) },
        signal: controller.signal,
      });
      if (response.status === 401 && game.token) return signedOut();
      if (!response.ok) throw new ApiError(response.status, `the table's live updates answered HTTP ${response.status}`);
      delay = 250;
      await readEvents(response.body, (type, data) => type === 'update' && show(JSON.parse(data)));
    } catch (error) {
      if (controller.signal.aborted) return;
      say(`${error.message}; reconnecting…`, true);
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/** Calls `onEvent(type, data)` for each server-sent event of the body, until it ends. */
async function readEvents(body, onEvent) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const lines = buffer.slice(0, end).split('\n');
      buffer = buffer.slice(end + 2);
      const type = lines.find((line) => line.startsWith('event:'))?.slice(6).trim() ?? 'message';
      const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).replace(/^ /, '')).join('\n');
      if (data) onEvent(type, data);
    }
  }
}

const nameOf = (id) => game.names[id] ?? id;

function cardHtml(card, selectable = false, index = 0) {
  if (!card) return '<span class="card back"></span>';
  const suit = card[1];
  const red = suit === 'h' || suit === 'd' ? ' red' : '';
  const picked = selectable && game.discards.has(index) ? ' picked' : '';
  const data = selectable ? ` data-index="${index}"` : '';
  return `<span class="card${red}${picked}"${data}>${card[0] === 'T' ? '10' : card[0]}${SUITS[suit]}</span>`;
}

function renderTable(view) {
  const hand = view.hand;
  const inHand = view.status === 'in_hand' && hand;
  $('#table-title').textContent = `${view.name} · ${view.variant.replaceAll('_', ' ').toLowerCase()} · blinds ${view.smallBlind}/${view.bigBlind}`;

  const players = new Map((hand?.players ?? []).map((p) => [p.playerId, p]));
  $('#seats').innerHTML = view.seats
    .map((seat) => {
      const p = inHand || hand?.phase === 'COMPLETE' ? players.get(seat.playerId) : undefined;
      const marks = [
        hand && seat.seat === hand.dealerPosition ? '<b class="chip dealer">D</b>' : '',
        inHand && seat.seat === hand.smallBlindPosition ? '<b class="chip">SB</b>' : '',
        inHand && seat.seat === hand.bigBlindPosition ? '<b class="chip">BB</b>' : '',
      ].join('');
      const state = p?.folded ? 'folded' : p?.allIn ? 'all-in' : seat.sittingOut ? 'sitting out' : '';
      const hidden = seat.playerId === game.me && view.yourCards ? view.yourCards : Array(HOLE_CARDS[view.variant]).fill(null);
      const cards = (p?.shown ?? (p && !p.folded && inHand ? hidden : [])).map((c) => cardHtml(c)).join('');
      const turn = inHand && hand.actionOn === seat.playerId ? ' turn' : '';
      const won = hand?.awards?.find((a) => a.playerId === seat.playerId);
      return `<div class="seat${turn}${seat.playerId === game.me ? ' mine' : ''}" data-player="${seat.playerId}">
        <div class="who">${marks} ${escapeHtml(nameOf(seat.playerId))}</div>
        <div class="stack">${p && inHand ? p.stack : seat.stack} chips</div>
        <div class="bet">${p?.bet ? `bet ${p.bet}` : ''} ${state}</div>
        <div class="cards">${cards}</div>
        <div class="ranking">${p?.ranking ? p.ranking.replaceAll('_', ' ').toLowerCase() : ''}${won ? ` · wins ${won.amount}` : ''}</div>
      </div>`;
    })
    .join('');

  $('#phase').textContent = hand ? `Hand #${hand.handNumber} · ${hand.phase.toLowerCase()}` : 'No hand yet';
  $('#board').innerHTML = (hand?.communityCards ?? []).map((c) => cardHtml(c)).join('');
  $('#pot').textContent = inHand ? `Pot ${hand.pot}` : '';
  const drawer = nextToDraw(view);
  $('#turn').textContent = inHand
    ? hand.actionOn
      ? `${hand.actionOn === game.me ? 'Your' : `${nameOf(hand.actionOn)}'s`} turn${hand.phase === 'SHOWDOWN' ? ' to show or muck' : hand.amountToCall ? ` · ${hand.amountToCall} to call` : ''}`
      : drawer
        ? `Drawing · ${drawer === game.me ? 'your' : `${nameOf(drawer)}'s`} turn`
        : ''
    : '';
  $('#result').textContent =
    hand?.phase === 'COMPLETE' && hand.awards ? hand.awards.map((a) => `${nameOf(a.playerId)} wins ${a.amount}`).join(', ') : '';

  const mine = players.get(game.me);
  $('#deal').classList.toggle('hidden', view.status === 'in_hand');
  $('#deal').disabled = false;
  $('#leave').classList.toggle('hidden', view.status === 'in_hand');
  $('#top-up-controls').classList.toggle('hidden', view.status === 'in_hand');
  const room = view.maxBuyIn - (view.seats.find((seat) => seat.playerId === game.me)?.stack ?? view.maxBuyIn);
  $('#top-up-amount').placeholder = room > 0 ? `up to ${room}` : 'at the max';
  const myTurn = inHand && hand.actionOn === game.me && hand.phase !== 'SHOWDOWN';
  $('#actions').classList.toggle('hidden', !myTurn);
  $('#draw-controls').classList.toggle('hidden', !canDraw(view));
  // At the showdown the turn comes to us only with a hand that cannot win: muck it, or show it anyway.
  $('#showdown-controls').classList.toggle('hidden', !(inHand && hand.phase === 'SHOWDOWN' && hand.actionOn === game.me));
  if (myTurn) {
    const toCall = hand.amountToCall;
    const betting = hand.players.some((p) => p.bet > 0);
    $('#check-call').textContent = toCall > 0 ? `Call ${Math.min(toCall, mine.stack)}` : 'Check';
    $('#check-call').dataset.action = toCall > 0 ? 'CALL' : 'CHECK';
    $('#bet-raise').textContent = betting ? 'Raise by' : 'Bet';
    $('#bet-raise').dataset.action = betting ? 'RAISE' : 'BET';
    if (!$('#amount').value) $('#amount').value = view.bigBlind;
  }
}

/** Five Card Draw: who exchanges cards next; players draw in turn, in the hand's order (from the left of the dealer). */
function nextToDraw(view) {
  const hand = view.hand;
  if (view.status !== 'in_hand' || hand?.phase !== 'DRAW' || hand.actionOn) return null;
  return hand.players.find((p) => !p.folded && p.drew === null)?.playerId ?? null;
}

/** Five Card Draw: our turn to exchange cards. */
function canDraw(view) {
  return nextToDraw(view) === game.me;
}

function renderMyCards(view) {
  const selectable = canDraw(view);
  $('#my-cards').innerHTML = (view.yourCards ?? []).map((c, i) => cardHtml(c, selectable, i)).join('');
}

function renderBalance(balance, where = '#balance') {
  $(where).textContent = `Bankroll ${balance.bankroll} · at the table ${balance.reserved} · available ${balance.available}`;
}

/** Text for the page, never markup: display names are whatever players typed. */
function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function renderLeaderboard(board) {
  // The top ten, and the players of this table on the page (the first hundred); our own row wherever it stands.
  const rows = board.entries.filter((row) => row.rank <= 10 || game.names[row.playerId]);
  if (board.you && !rows.some((row) => row.playerId === board.you.playerId)) rows.push(board.you);
  // Display names need not be unique: a name shown more than once gets a short id to tell them apart.
  const count = new Map();
  for (const row of rows) count.set(row.displayName, (count.get(row.displayName) ?? 0) + 1);
  const label = (row) => (count.get(row.displayName) > 1 ? `${row.displayName} · ${row.playerId.slice(-6)}` : row.displayName);
  $('#leaderboard tbody').innerHTML = rows
    .map((row) => {
      const css = [game.names[row.playerId] ? 'here' : '', row.playerId === game.me ? 'mine' : ''].join(' ');
      return `<tr class="${css}"><td>${row.rank}</td><td>${escapeHtml(label(row))}</td><td>${row.netWinnings > 0 ? '+' : ''}${row.netWinnings}</td><td>${row.handsPlayed}</td><td>${row.handsWon}</td></tr>`;
    })
    .join('');
}

$('#create').addEventListener('click', createGame);
$('#deal').addEventListener('click', deal);
$('#leave').addEventListener('click', leave);
$('#fold').addEventListener('click', () => act('FOLD'));
$('#check-call').addEventListener('click', (event) => act(event.target.dataset.action));
$('#bet-raise').addEventListener('click', (event) => act(event.target.dataset.action));
$('#all-in').addEventListener('click', () => act('ALL_IN'));
$('#draw').addEventListener('click', () => play('RequestDraw', { discardIndices: [...game.discards].sort() }));
$('#muck').addEventListener('click', () => play('RevealCards', { muck: true }));
$('#show').addEventListener('click', () => play('RevealCards', { muck: false }));
$('#top-up').addEventListener('click', topUp);
$('#my-cards').addEventListener('click', (event) => {
  const index = event.target.dataset?.index;
  if (index === undefined) return;
  game.discards.has(Number(index)) ? game.discards.delete(Number(index)) : game.discards.add(Number(index));
  renderMyCards(game.view);
});

if (joining) $('#create').textContent = 'Sign in, join the table, buy in';
api('GET', '/leaderboard?limit=100')
  .then(renderLeaderboard)
  .catch((error) => say(error.message, true));
resume();
