// The poker page: plain JavaScript on the app's HTTP API, no build step. It signs the person up
// (a player token, kept in localStorage and sent as Authorization: Bearer), creates bots (AI players,
// each with its own token) and a table, buys everyone in, and then polls the table view. The server
// plays the bots at the table's pace, with or without this page open. Leave takes everyone off the
// table, which settles their chips back into their bankrolls. A reload finds the player and the seat
// again from what localStorage kept.

const $ = (selector) => document.querySelector(selector);
const POLL_MS = 400;
const SUITS = { s: '♠', h: '♥', d: '♦', c: '♣' };
const HOLE_CARDS = { TEXAS_HOLDEM: 2, OMAHA: 4, FIVE_CARD_DRAW: 5 };

const game = { me: null, token: null, tableId: null, names: {}, botTokens: {}, view: null, discards: new Set() };
const SESSION = 'poker.session';
// `?seed=x` deals reproducible hands (x-1, x-2, ...); `?botDelayMs=n` and `?actionTimeoutMs=n` set the
// pace of new tables (the bots' thinking time, and how long a player has before being checked or
// folded). The browser test uses them.
const params = new URLSearchParams(location.search);
const seed = params.get('seed');
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
    await refresh();
  } catch (error) {
    say(error.message, true);
    $('#create').disabled = false;
  }
}

function showGame() {
  $('#setup').classList.add('hidden');
  $('#game').classList.remove('hidden');
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
      await refresh();
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
    await refresh();
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
    await refresh();
  } catch (error) {
    say(error.message, true);
  }
}

function act(action) {
  const amount = Number($('#amount').value);
  return play('PlayerAction', action === 'BET' || action === 'RAISE' ? { action, amount } : { action });
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

async function refresh() {
  if (!game.tableId) return;
  const [view, board, balance] = await Promise.all([
    api('GET', `/tables/${encodeURIComponent(game.tableId)}`),
    api('GET', '/leaderboard'),
    api('GET', `/players/${encodeURIComponent(game.me)}/balance`),
  ]);
  game.view = view;
  renderTable(view);
  renderMyCards(view);
  renderBalance(balance);
  renderLeaderboard(board);
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
  $('#turn').textContent = inHand
    ? hand.actionOn
      ? `${hand.actionOn === game.me ? 'Your' : `${nameOf(hand.actionOn)}'s`} turn${hand.amountToCall ? ` · ${hand.amountToCall} to call` : ''}`
      : hand.phase === 'DRAW'
        ? 'Drawing'
        : ''
    : '';
  $('#result').textContent =
    hand?.phase === 'COMPLETE' && hand.awards ? hand.awards.map((a) => `${nameOf(a.playerId)} wins ${a.amount}`).join(', ') : '';

  const mine = players.get(game.me);
  $('#deal').classList.toggle('hidden', view.status === 'in_hand');
  $('#deal').disabled = false;
  $('#leave').classList.toggle('hidden', view.status === 'in_hand');
  const myTurn = inHand && hand.actionOn === game.me;
  $('#actions').classList.toggle('hidden', !myTurn);
  $('#draw-controls').classList.toggle('hidden', !canDraw(view));
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

/** Five Card Draw: our turn to exchange cards. */
function canDraw(view) {
  const hand = view.hand;
  const mine = hand?.players.find((p) => p.playerId === game.me);
  return view.status === 'in_hand' && hand.phase === 'DRAW' && !hand.actionOn && mine && !mine.folded && mine.drew === null;
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
  // The top ten, and the players of this table wherever they stand.
  const rows = board.filter((row) => row.rank <= 10 || game.names[row.playerId]);
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
$('#my-cards').addEventListener('click', (event) => {
  const index = event.target.dataset?.index;
  if (index === undefined) return;
  game.discards.has(Number(index)) ? game.discards.delete(Number(index)) : game.discards.add(Number(index));
  renderMyCards(game.view);
});

setInterval(() => refresh().catch((error) => say(error.message, true)), POLL_MS);
api('GET', '/leaderboard')
  .then(renderLeaderboard)
  .catch((error) => say(error.message, true));
resume();
