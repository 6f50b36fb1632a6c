import { Inject, type OnModuleInit } from '@nestjs/common';
import {
  Aggregate,
  AggregateId,
  Apply,
  CommandHandler,
  OnEvent,
  OnTimeout,
  ProcessManager,
  Projector,
  type ProcessContext,
  type ProcessReaction,
  type ProjectionContext,
} from '@nest-es/core';
import { READ_MODEL_DATA_SOURCE, portableQuery } from '@nest-es/typeorm';
import { IsString } from 'class-validator';
import type { DataSource, EntityManager } from 'typeorm';

/* Tickets for the multi-process suite: clients open and comment tickets over HTTP, a process
   manager reminds each opened ticket once after a timer, and a projector counts how often it saw
   each event id, so an event projected twice shows as a count of 2. */

export class OpenTicket {
  @AggregateId() @IsString() ticketId!: string;
  @IsString() title!: string;
}
export class CommentTicket {
  @AggregateId() @IsString() ticketId!: string;
  @IsString() text!: string;
}
/** Sent by the reminder process only (not over HTTP). */
export class RemindTicket {
  @AggregateId() @IsString() ticketId!: string;
  constructor(ticketId: string) {
    this.ticketId = ticketId;
  }
}

export class TicketOpened {
  constructor(readonly title: string) {}
}
export class TicketCommented {
  constructor(readonly text: string) {}
}
export class TicketReminded {}

@Aggregate('ticket')
export class TicketAggregate {
  initialState() {
    return { comments: 0, reminded: 0 };
  }
  @CommandHandler(OpenTicket, { emits: [TicketOpened], http: true })
  open(command: OpenTicket) {
    return new TicketOpened(command.title);
  }
  @CommandHandler(CommentTicket, { emits: [TicketCommented], http: true })
  comment(command: CommentTicket) {
    return new TicketCommented(command.text);
  }
  @CommandHandler(RemindTicket, { emits: [TicketReminded] })
  remind() {
    return new TicketReminded();
  }
  @Apply(TicketOpened)
  onOpened() {}
  @Apply(TicketCommented)
  onCommented(state: { comments: number }) {
    state.comments++;
  }
  @Apply(TicketReminded)
  onReminded(state: { reminded: number }) {
    state.reminded++;
  }
}

/** The process's start (a process acts on timers only once it has a stream). */
export class ReminderScheduled {
  constructor(readonly ticketId: string) {}
}
/** The process's record that its timer fired: one per ticket, or the timer acted twice. */
export class ReminderFired {
  constructor(readonly ticketId: string) {}
}

/** Keyed by the OpenTicket's correlation id: one timer per opened ticket. */
@ProcessManager('ticket-reminder', { startsOn: [TicketOpened] })
export class TicketReminderProcess {
  static reminderAfterMs = 1_000;

  initialState() {
    return {};
  }

  @OnEvent(TicketOpened)
  onOpened(_event: TicketOpened, ctx: ProcessContext<object>): ProcessReaction {
    const ticketId = ctx.envelope!.aggregateId;
    return {
      events: [new ReminderScheduled(ticketId)],
      schedule: [{ name: 'remind', afterMs: TicketReminderProcess.reminderAfterMs, payload: { ticketId } }],
    };
  }

  @OnTimeout('remind')
  onRemind(payload: { ticketId: string }): ProcessReaction {
    return { events: [new ReminderFired(payload.ticketId)], emit: [new RemindTicket(payload.ticketId)] };
  }

  @Apply(ReminderScheduled)
  onScheduled() {}
  @Apply(ReminderFired)
  onFired() {}
}

/** One row per event id with the number of times it was projected (a double shows as 2). */
@Projector('ticket-ledger', { batchSize: 50 })
export class TicketLedgerProjector implements OnModuleInit {
  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await this.dataSource.query('CREATE TABLE IF NOT EXISTS ticket_ledger (event_id TEXT PRIMARY KEY, projections INTEGER NOT NULL)');
  }

  @OnEvent(TicketOpened, TicketCommented, TicketReminded)
  async onTicketEvent(_event: unknown, { envelope, tx }: ProjectionContext<EntityManager>) {
    await portableQuery(
      tx,
      `INSERT INTO ticket_ledger (event_id, projections) VALUES ($1, 1)
       ON CONFLICT (event_id) DO UPDATE SET projections = ticket_ledger.projections + 1`,
      [envelope.metadata.eventId],
    );
  }
}

export const TICKET_PROVIDERS = [TicketAggregate, TicketReminderProcess, TicketLedgerProjector];
