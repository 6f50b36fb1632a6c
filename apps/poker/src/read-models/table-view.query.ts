import { Inject, Injectable } from '@nestjs/common';
import { READ_MODEL_DATA_SOURCE, portableQuery } from '@nest-es/typeorm';
import { NotFoundError } from '@nest-es/core';
import type { DataSource } from 'typeorm';
import type { Card, Variant } from '../cards/index.js';
import type { HandView } from './hand-view.js';

export interface SeatView {
  seat: number;
  playerId: string;
  stack: number;
  sittingOut: boolean;
}

export interface TableView {
  tableId: string;
  name: string;
  variant: Variant;
  smallBlind: number;
  bigBlind: number;
  minBuyIn: number;
  maxBuyIn: number;
  maxPlayers: number;
  actionTimeoutMs: number;
  status: 'waiting' | 'in_hand';
  handCount: number;
  dealerPosition: number;
  /** Between hands, stacks as the last hand left them. */
  seats: SeatView[];
  /** The hand in progress, or the last one played; null before the first. */
  hand: HandView | null;
  /** The viewer's own hole cards in that hand, when `viewer` was given and is dealt in. */
  yourCards: Card[] | null;
}

/** Reads the table view read model. */
@Injectable()
export class TableViewQuery {
  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async table(tableId: string, viewer?: string): Promise<TableView> {
    const [row] = await portableQuery<Record<string, string | number | null>>(this.dataSource, 'SELECT * FROM poker_tables WHERE table_id = $1', [tableId]);
    if (!row) throw new NotFoundError(`table ${tableId} does not exist`);
    const seats = await portableQuery<Record<string, string | number>>(this.dataSource, 'SELECT * FROM poker_seats WHERE table_id = $1 ORDER BY seat', [tableId]);
    const handId = row.current_hand_id ?? row.last_hand_id;
    const [hand] = handId ? await portableQuery<{ public_state: string }>(this.dataSource, 'SELECT public_state FROM poker_hands WHERE hand_id = $1', [handId]) : [];
    const [cards] =
      handId && viewer
        ? await portableQuery<{ cards: string }>(this.dataSource, 'SELECT cards FROM poker_hole_cards WHERE hand_id = $1 AND player_id = $2', [handId, viewer])
        : [];
    return {
      tableId,
      name: String(row.name),
      variant: row.variant as Variant,
      smallBlind: Number(row.small_blind),
      bigBlind: Number(row.big_blind),
      minBuyIn: Number(row.min_buy_in),
      maxBuyIn: Number(row.max_buy_in),
      maxPlayers: Number(row.max_players),
      actionTimeoutMs: Number(row.action_timeout_ms),
      status: row.status as TableView['status'],
      handCount: Number(row.hand_count),
      dealerPosition: Number(row.dealer_position),
      seats: seats.map((seat) => ({ seat: Number(seat.seat), playerId: String(seat.player_id), stack: Number(seat.stack), sittingOut: Number(seat.sitting_out) === 1 })),
      hand: hand ? (JSON.parse(hand.public_state) as HandView) : null,
      yourCards: cards ? (JSON.parse(cards.cards) as Card[]) : null,
    };
  }
}
