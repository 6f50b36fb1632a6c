import { Aggregate, AggregateId, Apply, CommandHandler, emit, OnEvent, Projector, Saga, type SagaContext } from '@nest-es/core';
import { IsString } from 'class-validator';

/* A parcel shipped over HTTP, a board that projects it, and a saga that drops a note in the
   recipient's mailbox (whose event the board projects too): a command whose consequences cascade. */

/** A parcel whose id starts with this holds up the board: its consequences never become visible. */
export const STUCK = 'stuck';

export class Ship {
  @AggregateId() @IsString() parcelId!: string;
  @IsString() to!: string;
}

export class Shipped {
  constructor(readonly to: string) {}
}

@Aggregate('parcel')
export class ParcelAggregate {
  initialState(): { shipped: boolean } {
    return { shipped: false };
  }

  @CommandHandler(Ship, { emits: [Shipped], http: true })
  ship(command: Ship): Shipped {
    return new Shipped(command.to);
  }

  @Apply(Shipped)
  onShipped(state: { shipped: boolean }): void {
    state.shipped = true;
  }
}

export class DropNote {
  @AggregateId() @IsString() mailboxId!: string;
  @IsString() parcelId!: string;
}

export class NoteDropped {
  constructor(readonly parcelId: string) {}
}

@Aggregate('mailbox')
export class MailboxAggregate {
  initialState(): Record<string, never> {
    return {};
  }

  @CommandHandler(DropNote, { emits: [NoteDropped] })
  drop(command: DropNote): NoteDropped {
    return new NoteDropped(command.parcelId);
  }

  @Apply(NoteDropped)
  onDropped(): void {}
}

@Saga('parcel-notes')
export class ParcelNotesSaga {
  @OnEvent(Shipped)
  onShipped(event: Shipped, ctx: SagaContext) {
    return emit(DropNote, { mailboxId: event.to, parcelId: ctx.envelope.aggregateId });
  }
}

@Projector('parcel-board', { maxAttempts: 100 })
export class ParcelBoardProjector {
  readonly seen: string[] = [];

  @OnEvent(Shipped, NoteDropped)
  on(_event: Shipped | NoteDropped, ctx: { envelope: { aggregateId: string; type: string } }): void {
    if (ctx.envelope.aggregateId.startsWith(STUCK)) throw new Error('the board cannot show this parcel');
    this.seen.push(`${ctx.envelope.type} ${ctx.envelope.aggregateId}`);
  }
}

export const PARCEL_PROVIDERS = [ParcelAggregate, MailboxAggregate, ParcelNotesSaga, ParcelBoardProjector];
