import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import {
  Aggregate,
  AggregateId,
  Apply,
  CommandHandler,
  FailedPreconditionError,
  OnEvent,
  OnRejected,
  OnTimeout,
  ProcessManager,
  Projector,
  Saga,
  fact,
  type CommandRejection,
  type ProcessContext,
  type ProcessReaction,
  type ProjectionContext,
  type SagaContext,
} from '@nest-es/core';
import { READ_MODEL_DATA_SOURCE, portableQuery } from '@nest-es/typeorm';
import { IsInt, IsPositive, IsString } from 'class-validator';
import type { DataSource, EntityManager } from 'typeorm';

/* A small shop used by the processing suites: orders reserve stock through a saga, a process
   manager follows each order and times out unpaid ones, projectors keep read models. */

export class PlaceOrder {
  @AggregateId() @IsString() orderId!: string;
  @IsString() sku!: string;
  @IsInt() @IsPositive() quantity!: number;
  constructor(orderId: string, sku: string, quantity: number) {
    Object.assign(this, { orderId, sku, quantity });
  }
}
export class PayOrder {
  @AggregateId() @IsString() orderId!: string;
  constructor(orderId: string) {
    this.orderId = orderId;
  }
}
export class CancelOrder {
  @AggregateId() @IsString() orderId!: string;
  @IsString() reason!: string;
  constructor(orderId: string, reason: string) {
    Object.assign(this, { orderId, reason });
  }
}
export class OrderPlaced {
  constructor(
    readonly sku: string,
    readonly quantity: number,
  ) {}
}
export class OrderPaid {}
export class OrderCancelled {
  constructor(readonly reason: string) {}
}

@Aggregate('order')
export class OrderAggregate {
  initialState() {
    return { placed: false, status: 'new' };
  }
  @CommandHandler(PlaceOrder, { emits: [OrderPlaced] })
  place(command: PlaceOrder, state: { placed: boolean }) {
    if (state.placed) throw new FailedPreconditionError('order already placed');
    return new OrderPlaced(command.sku, command.quantity);
  }
  @CommandHandler(PayOrder, { emits: [OrderPaid] })
  pay(_command: PayOrder, state: { status: string }) {
    if (state.status !== 'placed') throw new FailedPreconditionError(`order is ${state.status}, cannot be paid`);
    return new OrderPaid();
  }
  @CommandHandler(CancelOrder, { emits: [OrderCancelled] })
  cancel(command: CancelOrder, state: { status: string }) {
    if (state.status !== 'placed') throw new FailedPreconditionError(`order is ${state.status}, cannot be cancelled`);
    return new OrderCancelled(command.reason);
  }
  @Apply(OrderPlaced)
  onPlaced(state: { placed: boolean; status: string }) {
    state.placed = true;
    state.status = 'placed';
  }
  @Apply(OrderPaid)
  onPaid(state: { status: string }) {
    state.status = 'paid';
  }
  @Apply(OrderCancelled)
  onCancelled(state: { status: string }) {
    state.status = 'cancelled';
  }
}

export class ReserveStock {
  @AggregateId() @IsString() sku!: string;
  @IsInt() @IsPositive() quantity!: number;
  @IsString() orderId!: string;
  constructor(sku: string, quantity: number, orderId: string) {
    Object.assign(this, { sku, quantity, orderId });
  }
}
export class StockReserved {
  constructor(
    readonly quantity: number,
    readonly orderId: string,
  ) {}
}
/** A fact: the warehouse counted; the stock aggregate cannot refuse it. */
export class StockCounted {
  constructor(readonly onHand: number) {}
}

@Aggregate('stock')
export class StockAggregate {
  initialState() {
    return { onHand: 10, reserved: 0 };
  }
  @CommandHandler(ReserveStock, { emits: [StockReserved] })
  reserve(command: ReserveStock, state: { onHand: number; reserved: number }) {
    if (command.quantity > state.onHand - state.reserved) {
      throw new FailedPreconditionError(`only ${state.onHand - state.reserved} left, ${command.quantity} asked`);
    }
    return new StockReserved(command.quantity, command.orderId);
  }
  @Apply(StockReserved)
  onReserved(state: { reserved: number }, event: StockReserved) {
    state.reserved += event.quantity;
  }
  @Apply(StockCounted)
  onCounted(state: { onHand: number }, event: StockCounted) {
    state.onHand = event.onHand;
  }
}

/** Order placed -> reserve stock; refused -> cancel the order. Also records a count fact per order. */
@Saga('order-stock', { maxAttempts: 2 })
export class OrderStockSaga {
  @OnEvent(OrderPlaced)
  onPlaced(event: OrderPlaced, ctx: SagaContext) {
    return [new ReserveStock(event.sku, event.quantity, ctx.envelope.aggregateId), fact('stock', event.sku, new StockCounted(10), `count-${event.sku}`)];
  }
  @OnRejected()
  onRejected(rejection: CommandRejection) {
    const command = rejection.command as ReserveStock;
    return new CancelOrder(command.orderId, `stock refused: ${rejection.message}`);
  }
}

/** Read models in the same database, written in the projector's transaction. */
@Projector('shop-view', { maxAttempts: 2, batchSize: 50 })
export class ShopProjector implements OnModuleInit {
  /** Tests flip this to make one order's projection fail until "fixed". */
  poisonOrders = new Set<string>();
  /** Tests set this to slow the projector down. */
  delayMs = 0;
  /** Tests set this to slow the projection of reserved stock (an event two hops down from PlaceOrder). */
  reservedDelayMs = 0;

  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await this.dataSource.query('CREATE TABLE IF NOT EXISTS shop_orders (order_id TEXT PRIMARY KEY, status TEXT NOT NULL, projections INTEGER NOT NULL)');
    await this.dataSource.query('CREATE TABLE IF NOT EXISTS shop_stock (sku TEXT PRIMARY KEY, reserved INTEGER NOT NULL)');
  }

  @OnEvent(OrderPlaced, OrderPaid, OrderCancelled)
  async onOrder(_event: unknown, { envelope, tx }: ProjectionContext<EntityManager>) {
    if (this.delayMs) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (this.poisonOrders.has(envelope.aggregateId)) throw new Error(`cannot project order ${envelope.aggregateId}`);
    const status = { OrderPlaced: 'placed', OrderPaid: 'paid', OrderCancelled: 'cancelled' }[envelope.type];
    await portableQuery(
      tx,
      `INSERT INTO shop_orders (order_id, status, projections) VALUES ($1, $2, 1)
       ON CONFLICT (order_id) DO UPDATE SET status = excluded.status, projections = shop_orders.projections + 1`,
      [envelope.aggregateId, status],
    );
  }

  @OnEvent(StockReserved)
  async onReserved(event: StockReserved, { envelope, tx }: ProjectionContext<EntityManager>) {
    if (this.reservedDelayMs) await new Promise((resolve) => setTimeout(resolve, this.reservedDelayMs));
    await portableQuery(
      tx,
      `INSERT INTO shop_stock (sku, reserved) VALUES ($1, $2) ON CONFLICT (sku) DO UPDATE SET reserved = shop_stock.reserved + excluded.reserved`,
      [envelope.aggregateId, event.quantity],
    );
  }

  async reset(manager: EntityManager) {
    await manager.query('DELETE FROM shop_orders');
    await manager.query('DELETE FROM shop_stock');
  }
}

export class OrderTracked {
  constructor(readonly orderId: string) {}
}
export class OrderSettled {
  constructor(readonly outcome: string) {}
}

export interface OrderFlowState {
  orderId: string;
  outcome: string | null;
}

/** Follows each order (keyed by its correlation id): cancels it when unpaid after `paymentTimeoutMs`. */
@ProcessManager('order-flow', { startsOn: [OrderPlaced] })
export class OrderFlowProcess {
  static paymentTimeoutMs = 60_000;

  initialState(): OrderFlowState {
    return { orderId: '', outcome: null };
  }

  @OnEvent(OrderPlaced)
  onPlaced(_event: OrderPlaced, ctx: ProcessContext<OrderFlowState>): ProcessReaction {
    const orderId = ctx.envelope!.aggregateId;
    return {
      events: [new OrderTracked(orderId)],
      schedule: [{ name: 'payment', afterMs: OrderFlowProcess.paymentTimeoutMs, payload: { orderId } }],
    };
  }

  @OnEvent(OrderPaid)
  onPaid(): ProcessReaction {
    return { events: [new OrderSettled('paid')], cancel: ['payment'] };
  }

  @OnEvent(OrderCancelled)
  onCancelled(event: OrderCancelled): ProcessReaction {
    return { events: [new OrderSettled(`cancelled: ${event.reason}`)], cancel: ['payment'] };
  }

  @OnTimeout('payment')
  onPaymentTimeout(payload: { orderId: string }, ctx: ProcessContext<OrderFlowState>): ProcessReaction {
    if (ctx.state.outcome) return {};
    return { emit: [new CancelOrder(payload.orderId, 'payment timed out')] };
  }

  @Apply(OrderTracked)
  onTracked(state: OrderFlowState, event: OrderTracked) {
    state.orderId = event.orderId;
  }

  @Apply(OrderSettled)
  onSettled(state: OrderFlowState, event: OrderSettled) {
    state.outcome = event.outcome;
  }
}

@Injectable()
export class ShopReadModel {
  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async order(orderId: string): Promise<{ status: string; projections: number } | undefined> {
    const [row] = await portableQuery<{ status: string; projections: number }>(this.dataSource, 'SELECT status, projections FROM shop_orders WHERE order_id = $1', [orderId]);
    return row ? { status: row.status, projections: Number(row.projections) } : undefined;
  }

  async reserved(sku: string): Promise<number> {
    const [row] = await portableQuery<{ reserved: number }>(this.dataSource, 'SELECT reserved FROM shop_stock WHERE sku = $1', [sku]);
    return row ? Number(row.reserved) : 0;
  }
}

export const SHOP_PROVIDERS = [OrderAggregate, StockAggregate, OrderStockSaga, ShopProjector, OrderFlowProcess, ShopReadModel];
