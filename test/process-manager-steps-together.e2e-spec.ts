// A process manager that gets several events of one instance in a delivery records the steps that
// send nothing, and the step after them, in one commit, and changes their timers in one call, with
// the outcome the steps one by one would have: the same events, timers and commands. Real store
// (SQLite, or PostgreSQL with ES_TEST_DB=postgres); the event and timer stores are the app's own,
// watched (and the timer change failed once) by wrapping their methods.
import { IsString } from 'class-validator';
import {
  Aggregate,
  AggregateId,
  Apply,
  CommandGateway,
  CommandHandler,
  OnEvent,
  ProcessManager,
  SyncMode,
  type EventStore,
  type ProcessContext,
  type ProcessReaction,
} from '@nest-es/core';
import type { AppendRequest, TimerStore } from '@nest-es/core/adapter';
import { startProcessManagerApp, type ProcessManagerApp } from './support/process-manager-app.js';
import { until } from './support/until.js';

class PlaceOrder {
  @AggregateId() @IsString() orderId!: string;
}
/** Ships and hands over in one append: the flow gets both events in one delivery. */
class ShipAndDeliver {
  @AggregateId() @IsString() orderId!: string;
}
class AskForReview {
  @AggregateId() @IsString() orderId!: string;
  constructor(orderId: string) {
    this.orderId = orderId;
  }
}
class OrderPlaced {}
class OrderShipped {}
class OrderDelivered {}
class ReviewAsked {}

@Aggregate('parcel-order')
class ParcelOrder {
  initialState() {
    return {};
  }
  @CommandHandler(PlaceOrder, { emits: [OrderPlaced] })
  place() {
    return new OrderPlaced();
  }
  @CommandHandler(ShipAndDeliver, { emits: [OrderShipped, OrderDelivered] })
  ship() {
    return [new OrderShipped(), new OrderDelivered()];
  }
  @CommandHandler(AskForReview, { emits: [ReviewAsked] })
  askForReview() {
    return new ReviewAsked();
  }
  @Apply(OrderPlaced) onPlaced() {}
  @Apply(OrderShipped) onShipped() {}
  @Apply(OrderDelivered) onDelivered() {}
  @Apply(ReviewAsked) onReviewAsked() {}
}

class Following {}
class SawShipped {}
class SawDelivered {}

/** Shipped: a timer for a late delivery, nothing sent. Delivered: that timer off, a review timer, a command. */
@ProcessManager('parcel-flow', { startsOn: [OrderPlaced], key: (_event, envelope) => envelope.aggregateId })
class ParcelFlow {
  initialState() {
    return { seen: [] as string[] };
  }
  @OnEvent(OrderPlaced)
  onPlaced(): ProcessReaction {
    return { events: [new Following()] };
  }
  @OnEvent(OrderShipped)
  onShipped(): ProcessReaction {
    return { events: [new SawShipped()], schedule: [{ name: 'late', afterMs: 600_000 }] };
  }
  @OnEvent(OrderDelivered)
  onDelivered(_event: OrderDelivered, { key, state }: ProcessContext<{ seen: string[] }>): ProcessReaction {
    // Decided on the state the step before left: it must have seen the shipment.
    if (!state.seen.includes('shipped')) throw new Error('delivered before shipped');
    return { events: [new SawDelivered()], cancel: ['late'], schedule: [{ name: 'review', afterMs: 600_000 }], emit: [new AskForReview(key)] };
  }
  @Apply(Following) onFollowing() {}
  @Apply(SawShipped)
  onSawShipped(state: { seen: string[] }) {
    state.seen.push('shipped');
  }
  @Apply(SawDelivered)
  onSawDelivered(state: { seen: string[] }) {
    state.seen.push('delivered');
  }
}

describe('a process manager with several events of one instance in a delivery', () => {
  let started: ProcessManagerApp;
  let events: EventStore;
  let timers: TimerStore;
  let gateway: CommandGateway;
  /** What happened to the flow's appends and timer changes, in order. */
  let seen: string[];
  let failNextTimerChange: boolean;

  beforeEach(async () => {
    started = await startProcessManagerApp(ParcelOrder, ParcelFlow);
    ({ events, timers } = started);
    gateway = started.app.get(CommandGateway);
    seen = [];
    failNextTimerChange = false;
    const append = events.append.bind(events);
    events.append = async (request: AppendRequest) => {
      if (request.stream.aggregateType !== 'parcel-flow') return append(request);
      const types = request.events.map((event) => event.type).join();
      seen.push(`append ${types}`);
      const result = await append(request);
      seen.push(`committed ${types}`);
      return result;
    };
    const change = timers.change.bind(timers);
    timers.change = async (owner, key, cancel, schedule) => {
      seen.push(`timers -${cancel.join()} +${schedule.map((timer) => timer.name).join()}`);
      if (failNextTimerChange) {
        failNextTimerChange = false;
        throw new Error('timer store unavailable');
      }
      return change(owner, key, cancel, schedule);
    };
  });

  afterEach(() => started.close());

  const flowEvents = async (orderId: string) => (await events.readStream({ aggregateType: 'parcel-flow', aggregateId: orderId })).map((event) => event.type);
  const reviewsAsked = async (orderId: string) =>
    (await events.readStream({ aggregateType: 'parcel-order', aggregateId: orderId })).filter((event) => event.type === 'ReviewAsked').length;
  const pendingTimers = async (orderId: string) => (await timers.pending('parcel-flow', orderId)).map((timer) => timer.name);

  async function placeAndShip(orderId: string): Promise<void> {
    await gateway.send(Object.assign(new PlaceOrder(), { orderId }), { syncMode: SyncMode.CASCADE });
    seen = [];
    await gateway.send(Object.assign(new ShipAndDeliver(), { orderId }), { syncMode: SyncMode.ASYNC });
  }

  it('records both steps together, the second sent before the first commits, and changes their timers once, with the outcome of one step after the other', async () => {
    await placeAndShip('o1');
    await until(async () => (await reviewsAsked('o1')) === 1, 'the review asked for');
    await until(async () => (await pendingTimers('o1')).length > 0, 'the review timer');
    expect(seen).toEqual(['append SawShipped', 'append SawDelivered', 'committed SawShipped', 'committed SawDelivered', 'timers -late +review']);
    expect(await flowEvents('o1')).toEqual(['Following', 'SawShipped', 'SawDelivered']);
    expect(await pendingTimers('o1')).toEqual(['review']);
  });

  it('does both steps again when their timer change fails: the events, the timer and the command once', async () => {
    failNextTimerChange = true;
    await placeAndShip('o2');
    // Delivered again, each step does its part in turn: the late timer comes back, then goes with the review timer's start.
    const reviewAlone = async () => (await pendingTimers('o2')).join() === 'review';
    await until(reviewAlone, 'the review timer alone, once the events were delivered again');
    await until(async () => (await reviewsAsked('o2')) === 1, 'the review asked for');
    expect(seen.filter((what) => what.startsWith('timers')).length).toBeGreaterThanOrEqual(2);
    expect(await flowEvents('o2')).toEqual(['Following', 'SawShipped', 'SawDelivered']);
    expect(await reviewsAsked('o2')).toBe(1);
  });
});
