import { Inject, type OnModuleInit } from '@nestjs/common';
import { READ_MODEL_DATA_SOURCE, portableQuery } from '@nest-es/typeorm';
import { OnEvent, Projector, type ProjectionContext } from '@nest-es/core';
import type { DataSource, EntityManager } from 'typeorm';
import {
  ActionTaken,
  BettingRoundComplete,
  BlindPosted,
  CardsDealt,
  CardsMucked,
  CardsRevealed,
  CommunityCardsDealt,
  DrawCompleted,
  drawnHand,
  HandComplete,
  PotAwarded,
} from '../hand/index.js';
import { HandEnded, HandStarted, PlayerJoined, PlayerLeft, PlayerSatIn, PlayerSatOut, PlayerToppedUp, TableCreated } from '../table/index.js';
import {
  type HandView,
  handViewAwarded,
  handViewChips,
  handViewCommunityCards,
  handViewComplete,
  handViewDealt,
  handViewDrew,
  handViewMucked,
  handViewRevealed,
  handViewRoundComplete,
  handViewStarted,
} from './hand-view.js';
import { createTables, widenToBigint } from './sql.js';

/** The projection's transaction is TypeORM's EntityManager: it also moves the checkpoint. */
type Ctx = ProjectionContext<EntityManager>;

/**
 * Table view, for the web page: each table with its seats and stacks, the public state of its
 * current (or last) hand, and each player's own hole cards, kept apart so only they are shown them.
 */
@Projector('table-view')
export class TableViewProjector implements OnModuleInit {
  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  /**
   * Chips are BIGINT: a stack can reach a whole table's chips (MAX_TABLE_CHIPS, beyond PostgreSQL's
   * 32-bit INTEGER). Counts, seats and milliseconds are bounded by the commands within INTEGER.
   */
  async onModuleInit(): Promise<void> {
    await createTables(
      this.dataSource,
      [
        `CREATE TABLE IF NOT EXISTS poker_tables (
          table_id TEXT PRIMARY KEY, name TEXT NOT NULL, variant TEXT NOT NULL, small_blind BIGINT NOT NULL, big_blind BIGINT NOT NULL,
          min_buy_in BIGINT NOT NULL, max_buy_in BIGINT NOT NULL, max_players INTEGER NOT NULL, action_timeout_ms INTEGER NOT NULL,
          status TEXT NOT NULL, hand_count INTEGER NOT NULL, dealer_position INTEGER NOT NULL, current_hand_id TEXT, last_hand_id TEXT)`,
        `CREATE TABLE IF NOT EXISTS poker_seats (
          table_id TEXT NOT NULL, seat INTEGER NOT NULL, player_id TEXT NOT NULL, stack BIGINT NOT NULL, sitting_out INTEGER NOT NULL,
          PRIMARY KEY (table_id, seat))`,
        'CREATE TABLE IF NOT EXISTS poker_hands (hand_id TEXT PRIMARY KEY, table_id TEXT NOT NULL, public_state TEXT NOT NULL)',
        'CREATE TABLE IF NOT EXISTS poker_hole_cards (hand_id TEXT NOT NULL, player_id TEXT NOT NULL, cards TEXT NOT NULL, PRIMARY KEY (hand_id, player_id))',
      ],
      [widenToBigint('poker_tables', ['small_blind', 'big_blind', 'min_buy_in', 'max_buy_in']), widenToBigint('poker_seats', ['stack'])],
    );
  }

  @OnEvent(TableCreated)
  async onCreated(event: TableCreated, ctx: Ctx): Promise<void> {
    const { envelope, tx: manager } = ctx;
    ctx.changed(envelope.aggregateId);
    await portableQuery(
      manager,
      `INSERT INTO poker_tables (table_id, name, variant, small_blind, big_blind, min_buy_in, max_buy_in, max_players, action_timeout_ms,
         status, hand_count, dealer_position) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'waiting', 0, -1) ON CONFLICT (table_id) DO NOTHING`,
      [
        envelope.aggregateId,
        event.name,
        event.variant,
        event.smallBlind,
        event.bigBlind,
        event.minBuyIn,
        event.maxBuyIn,
        event.maxPlayers,
        event.actionTimeoutMs,
      ],
    );
  }

  @OnEvent(PlayerJoined)
  async onJoined(event: PlayerJoined, ctx: Ctx): Promise<void> {
    const { envelope, tx: manager } = ctx;
    ctx.changed(envelope.aggregateId);
    await portableQuery(manager, 'INSERT INTO poker_seats (table_id, seat, player_id, stack, sitting_out) VALUES ($1, $2, $3, $4, 0)', [
      envelope.aggregateId,
      event.seat,
      event.playerId,
      event.stack,
    ]);
  }

  @OnEvent(PlayerToppedUp)
  async onToppedUp(event: PlayerToppedUp, ctx: Ctx): Promise<void> {
    const { envelope, tx: manager } = ctx;
    ctx.changed(envelope.aggregateId);
    await portableQuery(manager, 'UPDATE poker_seats SET stack = $1 WHERE table_id = $2 AND seat = $3', [event.stack, envelope.aggregateId, event.seat]);
  }

  @OnEvent(PlayerLeft)
  async onLeft(event: PlayerLeft, ctx: Ctx): Promise<void> {
    const { envelope, tx: manager } = ctx;
    ctx.changed(envelope.aggregateId);
    await portableQuery(manager, 'DELETE FROM poker_seats WHERE table_id = $1 AND seat = $2', [envelope.aggregateId, event.seat]);
  }

  @OnEvent(PlayerSatOut, PlayerSatIn)
  async onSitting(event: PlayerSatOut | PlayerSatIn, ctx: Ctx): Promise<void> {
    const { envelope, tx: manager } = ctx;
    ctx.changed(envelope.aggregateId);
    await portableQuery(manager, 'UPDATE poker_seats SET sitting_out = $1 WHERE table_id = $2 AND player_id = $3', [
      envelope.type === 'PlayerSatOut' ? 1 : 0,
      envelope.aggregateId,
      event.playerId,
    ]);
  }

  @OnEvent(HandStarted)
  async onHandStarted(event: HandStarted, ctx: Ctx): Promise<void> {
    const { envelope, tx: manager } = ctx;
    ctx.changed(envelope.aggregateId);
    await portableQuery(
      manager,
      `UPDATE poker_tables SET status = 'in_hand', hand_count = $1, dealer_position = $2, current_hand_id = $3, last_hand_id = $3 WHERE table_id = $4`,
      [event.handNumber, event.dealerPosition, event.handId, envelope.aggregateId],
    );
    await portableQuery(manager, 'INSERT INTO poker_hands (hand_id, table_id, public_state) VALUES ($1, $2, $3) ON CONFLICT (hand_id) DO NOTHING', [
      event.handId,
      envelope.aggregateId,
      JSON.stringify(handViewStarted(event)),
    ]);
  }

  @OnEvent(HandEnded)
  async onHandEnded(event: HandEnded, ctx: Ctx): Promise<void> {
    const { envelope, tx: manager } = ctx;
    ctx.changed(envelope.aggregateId);
    for (const [playerId, change] of Object.entries(event.stackChanges)) {
      await portableQuery(manager, 'UPDATE poker_seats SET stack = stack + $1 WHERE table_id = $2 AND player_id = $3', [change, envelope.aggregateId, playerId]);
    }
    await portableQuery(manager, `UPDATE poker_tables SET status = 'waiting', current_hand_id = NULL WHERE table_id = $1`, [envelope.aggregateId]);
  }

  @OnEvent(CardsDealt)
  async onDealt(event: CardsDealt, ctx: Ctx): Promise<void> {
    const { envelope, tx: manager } = ctx;
    for (const { playerId, holeCards } of event.players) {
      await portableQuery(manager, 'INSERT INTO poker_hole_cards (hand_id, player_id, cards) VALUES ($1, $2, $3) ON CONFLICT (hand_id, player_id) DO NOTHING', [
        envelope.aggregateId,
        playerId,
        JSON.stringify(holeCards),
      ]);
    }
    await this.updateHand(ctx, handViewDealt);
  }

  @OnEvent(BlindPosted, ActionTaken)
  onChips(event: BlindPosted | ActionTaken, ctx: Ctx): Promise<void> {
    return this.updateHand(ctx, (view) => handViewChips(view, event));
  }

  @OnEvent(BettingRoundComplete)
  onRoundComplete(event: BettingRoundComplete, ctx: Ctx): Promise<void> {
    return this.updateHand(ctx, (view) => handViewRoundComplete(view, event));
  }

  @OnEvent(CommunityCardsDealt)
  onCommunityCards(event: CommunityCardsDealt, ctx: Ctx): Promise<void> {
    return this.updateHand(ctx, (view) => handViewCommunityCards(view, event));
  }

  @OnEvent(DrawCompleted)
  async onDrew(event: DrawCompleted, ctx: Ctx): Promise<void> {
    const { envelope, tx: manager } = ctx;
    const [row] = await portableQuery<{ cards: string }>(manager, 'SELECT cards FROM poker_hole_cards WHERE hand_id = $1 AND player_id = $2', [
      envelope.aggregateId,
      event.playerId,
    ]);
    if (row) {
      const cards = drawnHand(JSON.parse(row.cards), event.cardsDiscarded, event.cardsDrawn);
      await portableQuery(manager, 'UPDATE poker_hole_cards SET cards = $1 WHERE hand_id = $2 AND player_id = $3', [JSON.stringify(cards), envelope.aggregateId, event.playerId]);
    }
    await this.updateHand(ctx, (view) => handViewDrew(view, event));
  }

  @OnEvent(CardsRevealed)
  onRevealed(event: CardsRevealed, ctx: Ctx): Promise<void> {
    return this.updateHand(ctx, (view) => handViewRevealed(view, event));
  }

  @OnEvent(CardsMucked)
  onMucked(event: CardsMucked, ctx: Ctx): Promise<void> {
    return this.updateHand(ctx, (view) => handViewMucked(view, event));
  }

  @OnEvent(PotAwarded)
  onAwarded(event: PotAwarded, ctx: Ctx): Promise<void> {
    return this.updateHand(ctx, (view) => handViewAwarded(view, event.awards));
  }

  @OnEvent(HandComplete)
  onComplete(event: HandComplete, ctx: Ctx): Promise<void> {
    return this.updateHand(ctx, (view) => handViewComplete(view, event));
  }

  async reset(manager: EntityManager): Promise<void> {
    for (const table of ['poker_tables', 'poker_seats', 'poker_hands', 'poker_hole_cards']) await portableQuery(manager, `DELETE FROM ${table}`);
  }

  /** A hand event changes the hand's view, and so its table's; hands dealt without a table's HandStarted have none. */
  private async updateHand({ envelope, tx: manager, changed }: Ctx, change: (view: HandView) => void): Promise<void> {
    const [row] = await portableQuery<{ public_state: string; table_id: string }>(manager, 'SELECT public_state, table_id FROM poker_hands WHERE hand_id = $1', [
      envelope.aggregateId,
    ]);
    if (!row) return;
    const view = JSON.parse(row.public_state) as HandView;
    change(view);
    await portableQuery(manager, 'UPDATE poker_hands SET public_state = $1 WHERE hand_id = $2', [JSON.stringify(view), envelope.aggregateId]);
    changed(row.table_id);
  }
}
