// A process manager's step that changes its timers and sends a command does both side by side, after
// its record: the command does not wait for the timers' commit. A step whose timer change fails runs
// again: the timer is set and the command stored once. Real store (SQLite, or PostgreSQL with
// ES_TEST_DB=postgres); the timer store is the app's own, with its `change` held or failed once.
import type { INestApplication } from '@nestjs/common';
import {
  Apply,
  CommandGateway,
  OnEvent,
  ProcessManager,
  SyncMode,
  type EventStore,
  type ProcessContext,
  type ProcessReaction,
} from '@nest-es/core';
import type { TimerStore } from '@nest-es/core/adapter';
import { startProcessManagerApp, type ProcessManagerApp } from './support/process-manager-app.js';
import { OpenTicket, RemindTicket, TicketAggregate, TicketOpened } from './support/ticket.domain.js';
import { until } from './support/until.js';

class TicketFollowed {}

/** On a ticket opened: records it, sets a nudge timer and sends a command, all in one step. */
@ProcessManager('ticket-flow', { startsOn: [TicketOpened], key: (_event, envelope) => envelope.aggregateId })
class TicketFlow {
  initialState() {
    return {};
  }
  @OnEvent(TicketOpened)
  onOpened(_event: TicketOpened, { key }: ProcessContext<object>): ProcessReaction {
    return { events: [new TicketFollowed()], schedule: [{ name: 'nudge', afterMs: 600_000 }], emit: [new RemindTicket(key)] };
  }
  @Apply(TicketFollowed)
  onFollowed() {}
}

const open = (ticketId: string) => Object.assign(new OpenTicket(), { ticketId, title: 'printer' });

describe('a process manager step with timers and commands', () => {
  let started: ProcessManagerApp;
  let app: INestApplication;
  let timers: TimerStore;
  let events: EventStore;
  let change: TimerStore['change'];

  beforeEach(async () => {
    started = await startProcessManagerApp(TicketAggregate, TicketFlow);
    ({ app, timers, events } = started);
    change = timers.change.bind(timers);
  });

  afterEach(() => started.close());

  const reminders = async (ticketId: string) =>
    (await events.readStream({ aggregateType: 'ticket', aggregateId: ticketId })).filter((event) => event.type === 'TicketReminded').length;

  it('sends the command while the timer change still commits', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    timers.change = async (...args) => {
      await held;
      return change(...args);
    };
    await app.get(CommandGateway).send(open('t1'), { syncMode: SyncMode.ASYNC });
    const sentMeanwhile = await until(async () => (await reminders('t1')) === 1, 'the command, timers held', 5_000).then(
      () => true,
      () => false,
    );
    release();
    expect(sentMeanwhile).toBe(true);
    await until(async () => (await timers.pending('ticket-flow', 't1')).length === 1, 'the timer, released');
  });

  it('runs a step again when its timer change fails: the timer is set and the command stored once', async () => {
    let calls = 0;
    timers.change = async (...args) => {
      if (calls++ === 0) throw new Error('timer store unavailable');
      return change(...args);
    };
    await app.get(CommandGateway).send(open('t2'), { syncMode: SyncMode.ASYNC });
    await until(async () => (await timers.pending('ticket-flow', 't2')).length === 1, 'the timer, on the step delivered again');
    expect(calls).toBe(2);
    expect(await reminders('t2')).toBe(1);
    const flow = await events.readStream({ aggregateType: 'ticket-flow', aggregateId: 't2' });
    expect(flow.map((event) => event.type)).toEqual(['TicketFollowed']);
  });
});
