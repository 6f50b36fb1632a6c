import { randomUUID } from 'node:crypto';
import type { BotMoveMade } from '../bots/bot-player.js';
import type { BettingAction } from '../hand/index.js';
import type { BuyInOutcome } from '../http/buy-in.dto.js';
import type { Balance, LeaderboardEntry, TableView } from '../read-models/index.js';
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

/** The poker app's HTTP API, for the demo and the tests: every call is a real request. */
export class PokerClient {
  constructor(readonly baseUrl: string) {}

  command(aggregateType: string, aggregateId: string, commandType: string, body: object, headers: Record<string, string> = {}): Promise<CommandAnswer> {
    return this.request('POST', `/commands/${aggregateType}/${encodeURIComponent(aggregateId)}/${commandType}`, body, headers);
  }

  /** Registers a player and deposits their bankroll; returns when the balance shows it (Sync-Mode: simple). */
  async registerPlayer(playerId: string, displayName: string, deposit: number, playerType: 'HUMAN' | 'AI' = 'HUMAN'): Promise<void> {
    await this.command('player', playerId, 'RegisterPlayer', { displayName, email: `${playerId}@poker.example`, playerType });
    await this.command('player', playerId, 'DepositFunds', { amount: deposit }, { 'Sync-Mode': 'simple' });
  }

  async createTable(tableId: string, terms: TableTerms): Promise<void> {
    await this.command('table', tableId, 'CreateTable', terms, { 'Sync-Mode': 'simple' });
  }

  buyIn(tableId: string, playerId: string, amount: number, seat = -1): Promise<BuyInOutcome> {
    return this.request('POST', `/tables/${encodeURIComponent(tableId)}/buy-in`, { playerId, seat, amount });
  }

  /** Starts a hand under a fresh correlation id; CASCADE: the cards are dealt and the blinds posted when it returns. */
  async startHand(tableId: string, seed?: string): Promise<{ handId: string; correlationId: string }> {
    const correlationId = `hand-${randomUUID()}`;
    const answer = await this.command('table', tableId, 'StartHand', seed === undefined ? {} : { seed }, { 'Correlation-Id': correlationId, 'Sync-Mode': 'cascade' });
    return { handId: String(answer.events[0].payload.handId), correlationId };
  }

  /** A player's move in the table's current hand, under the hand's correlation id. */
  async act(tableId: string, playerId: string, action: BettingAction, amount?: number): Promise<CommandAnswer> {
    const hand = await this.currentHand(tableId);
    return this.command('hand', hand.handId, 'PlayerAction', amount === undefined ? { playerId, action } : { playerId, action, amount }, this.inHand(hand));
  }

  async draw(tableId: string, playerId: string, discardIndices: number[]): Promise<CommandAnswer> {
    const hand = await this.currentHand(tableId);
    return this.command('hand', hand.handId, 'RequestDraw', { playerId, discardIndices }, this.inHand(hand));
  }

  async leave(tableId: string, playerId: string): Promise<void> {
    await this.command('table', tableId, 'LeaveTable', { playerId }, { 'Sync-Mode': 'cascade' });
  }

  botsAct(tableId: string): Promise<BotMoveMade[]> {
    return this.request('POST', `/tables/${encodeURIComponent(tableId)}/bots/act`, {});
  }

  table(tableId: string, viewer?: string): Promise<TableView> {
    return this.request('GET', `/tables/${encodeURIComponent(tableId)}${viewer ? `?viewer=${encodeURIComponent(viewer)}` : ''}`);
  }

  balance(playerId: string): Promise<Balance> {
    return this.request('GET', `/players/${encodeURIComponent(playerId)}/balance`);
  }

  leaderboard(): Promise<LeaderboardEntry[]> {
    return this.request('GET', '/leaderboard');
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

  private async currentHand(tableId: string): Promise<NonNullable<TableView['hand']>> {
    const view = await this.table(tableId);
    if (view.status !== 'in_hand' || !view.hand) throw new Error(`no hand is running at table ${tableId}`);
    return view.hand;
  }

  private inHand(hand: NonNullable<TableView['hand']>): Record<string, string> {
    return { 'Correlation-Id': hand.correlationId, 'Sync-Mode': 'cascade' };
  }
}
