import { randomUUID } from 'node:crypto';
import type { BotMoveMade } from '../bots/bot-plan.js';
import type { BettingAction } from '../hand/index.js';
import type { BuyInOutcome } from '../http/buy-in.dto.js';
import type { Balance, LeaderboardEntry, LeaderboardPage, TableView } from '../read-models/index.js';
import type { CreateTable } from '../table/index.js';

/** An answer other than 2xx, with the framework's error body `{statusCode, code, message, ...}`. */
export class PokerApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { code?: string; message?: string; [key: string]: unknown },
  ) {
    super(`HTTP ${status} ${body.code ?? ''}: ${body.message ?? JSON.stringify(body)}`);
  }
}

export interface CommandAnswer {
  aggregateType: string;
  aggregateId: string;
  sequence: number;
  events: Array<{ type: string; sequence: number; position: number; payload: Record<string, unknown> }>;
}

export type TableTerms = Omit<CreateTable, 'tableId'>;

const CASCADE = { 'Sync-Mode': 'cascade' };

/**
 * The poker app's HTTP API, for the demo and the tests: every call is a real request. It keeps the
 * token of each player it registered and signs each call as the player it concerns.
 */
export class PokerClient {
  private readonly tokens = new Map<string, string>();
  private host: Promise<string> | undefined;

  constructor(readonly baseUrl: string) {}

  /**
   * A command signed as `as`; by default the player it concerns: the player aggregate itself, the
   * command's `playerId`, or else this client's host player (registered when first needed).
   */
  async command(aggregateType: string, aggregateId: string, commandType: string, body: object, headers: Record<string, string> = {}, as?: string): Promise<CommandAnswer> {
    const caller = as ?? (body as { playerId?: string }).playerId ?? (aggregateType === 'player' ? aggregateId : await this.hostPlayer());
    return this.request('POST', `/commands/${aggregateType}/${encodeURIComponent(aggregateId)}/${commandType}`, body, this.signedAs(caller, headers));
  }

  /**
   * Registers a player (the app gives each one its starting bankroll) and keeps the player's token.
   * Under an Idempotency-Key of its own, so a sign-up cut short by a server error or a lost
   * connection is sent once more and finished, not refused as a taken id.
   */
  async registerPlayer(playerId: string, displayName: string, playerType: 'HUMAN' | 'AI' = 'HUMAN'): Promise<void> {
    const key = randomUUID();
    const sign = () => this.request<{ token: string }>('POST', '/auth/register', { playerId, displayName, playerType }, { 'Idempotency-Key': key });
    const session = await sign().catch((error: unknown) => {
      if (error instanceof PokerApiError && error.status < 500) throw error;
      return sign();
    });
    this.tokens.set(playerId, session.token);
  }

  tokenOf(playerId: string): string | undefined {
    return this.tokens.get(playerId);
  }

  /** Signs as the players another client signed up (the same players on a restarted server). */
  keepTokensOf(other: PokerClient): void {
    for (const [playerId, token] of other.tokens) this.tokens.set(playerId, token);
  }

  /** Created by this client's host player. */
  async createTable(tableId: string, terms: TableTerms): Promise<void> {
    await this.command('table', tableId, 'CreateTable', terms, { 'Sync-Mode': 'simple' }, await this.hostPlayer());
  }

  buyIn(tableId: string, playerId: string, amount: number, seat = -1): Promise<BuyInOutcome> {
    return this.request('POST', `/tables/${encodeURIComponent(tableId)}/buy-in`, { playerId, seat, amount }, this.signedAs(playerId));
  }

  /**
   * Starts a hand as a player seated there (`by`, or the first seated player this client signed up);
   * CASCADE: the cards are dealt and the blinds posted when it returns, and the table view shows it.
   */
  async startHand(tableId: string, seed?: string, by?: string): Promise<{ handId: string }> {
    const answer = await this.command('table', tableId, 'StartHand', seed === undefined ? {} : { seed }, CASCADE, by ?? (await this.seatedPlayer(tableId)));
    const handId = String(answer.events[0].payload.handId);
    const { hand } = await this.table(tableId);
    if (hand?.handId !== handId) throw new Error(`the table view of ${tableId} does not show hand ${handId} after StartHand with CASCADE`);
    return { handId };
  }

  /** A player's move in the table's current hand (the hand flow, keyed by the hand id, follows it). */
  async act(tableId: string, playerId: string, action: BettingAction, amount?: number): Promise<CommandAnswer> {
    const hand = await this.currentHand(tableId);
    return this.command('hand', hand.handId, 'PlayerAction', amount === undefined ? { playerId, action } : { playerId, action, amount }, CASCADE);
  }

  async draw(tableId: string, playerId: string, discardIndices: number[]): Promise<CommandAnswer> {
    const hand = await this.currentHand(tableId);
    return this.command('hand', hand.handId, 'RequestDraw', { playerId, discardIndices }, CASCADE);
  }

  async leave(tableId: string, playerId: string): Promise<void> {
    await this.command('table', tableId, 'LeaveTable', { playerId }, { 'Sync-Mode': 'cascade' });
  }

  async botsAct(tableId: string): Promise<BotMoveMade[]> {
    return this.request('POST', `/tables/${encodeURIComponent(tableId)}/bots/act`, {}, this.signedAs(await this.seatedPlayer(tableId)));
  }

  /** The table as `viewer` sees it (with the viewer's own hole cards), or as anyone does. */
  table(tableId: string, viewer?: string): Promise<TableView> {
    return this.request('GET', `/tables/${encodeURIComponent(tableId)}`, undefined, viewer ? this.signedAs(viewer) : {});
  }

  balance(playerId: string): Promise<Balance> {
    return this.request('GET', `/players/${encodeURIComponent(playerId)}/balance`, undefined, this.signedAs(playerId));
  }

  /** The leaderboard's first 100 rows (its largest page). */
  async leaderboard(): Promise<LeaderboardEntry[]> {
    return (await this.request<LeaderboardPage>('GET', '/leaderboard?limit=100')).entries;
  }

  async request<T>(method: 'GET' | 'POST', path: string, body?: object, headers: Record<string, string> = {}): Promise<T> {
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: body ? { 'Content-Type': 'application/json', ...headers } : headers,
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    const parsed = text ? JSON.parse(text) : undefined;
    if (!response.ok) throw new PokerApiError(response.status, parsed ?? {});
    return parsed as T;
  }

  /** `Authorization` for a player this client registered (none for others: the server answers 401). */
  signedAs(playerId: string, headers: Record<string, string> = {}): Record<string, string> {
    const token = this.tokens.get(playerId);
    return token ? { Authorization: `Bearer ${token}`, ...headers } : headers;
  }

  private hostPlayer(): Promise<string> {
    this.host ??= (async () => {
      const id = `host-${randomUUID()}`;
      await this.registerPlayer(id, 'Host');
      return id;
    })();
    return this.host;
  }

  private async seatedPlayer(tableId: string): Promise<string> {
    const seated = (await this.table(tableId)).seats.find((seat) => this.tokens.has(seat.playerId));
    if (!seated) throw new Error(`this client has signed up no player seated at table ${tableId}`);
    return seated.playerId;
  }

  private async currentHand(tableId: string): Promise<NonNullable<TableView['hand']>> {
    const view = await this.table(tableId);
    if (view.status !== 'in_hand' || !view.hand) throw new Error(`no hand is running at table ${tableId}`);
    return view.hand;
  }
}
