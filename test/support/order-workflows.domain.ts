import { IsString } from 'class-validator';
import {
  Aggregate,
  AggregateId,
  Apply,
  type CommandRejection,
  CommandHandler,
  emit,
  OnEvent,
  OnRejected,
  OnTimeout,
  ProcessManager,
  type ProcessContext,
  type ProcessReaction,
  Saga,
  type SagaContext,
} from '@nest-es/core';

/** The item that no workflow can handle: every attempt at it throws (a poison event). */
export const POISON = 'poison';

export class AddItem {
  @AggregateId() @IsString() orderId!: string;
  @IsString() item!: string;
}

export class ItemAdded {
  constructor(
    readonly orderId: string,
    readonly item: string,
  ) {}
}

@Aggregate('order')
export class OrderAggregate {
  initialState(): { items: string[] } {
    return { items: [] };
  }

  @CommandHandler(AddItem, { emits: [ItemAdded] })
  add(command: AddItem): ItemAdded {
    return new ItemAdded(command.orderId, command.item);
  }

  @Apply(ItemAdded)
  onAdded(state: { items: string[] }, event: ItemAdded): void {
    state.items.push(event.item);
  }
}

/** A receipt per item, or a shipment label: what the workflows send. */
export class WriteNote {
  @AggregateId() @IsString() noteId!: string;
  @IsString() text!: string;
}

export class NoteWritten {
  constructor(readonly text: string) {}
}

@Aggregate('note')
export class NoteAggregate {
  initialState(): object {
    return {};
  }

  @CommandHandler(WriteNote, { emits: [NoteWritten] })
  write(command: WriteNote): NoteWritten {
    return new NoteWritten(command.text);
  }

  @Apply(NoteWritten)
  onWritten(): void {}
}

/** Every attempt a workflow made, by position, in order. */
export class Attempts {
  readonly seen: Array<{ subscriber: string; position: number; orderId: string }> = [];

  note(subscriber: string, ctx: { envelope?: { position: number } }, orderId: string): void {
    this.seen.push({ subscriber, position: ctx.envelope!.position, orderId });
  }

  positions(subscriber: string, orderId: string): number[] {
    return this.seen.filter((entry) => entry.subscriber === subscriber && entry.orderId === orderId).map((entry) => entry.position);
  }
}

/** Issues a receipt per item; the poison item throws on every attempt. */
@Saga('receipts', { maxAttempts: 8 })
export class ReceiptsSaga {
  constructor(private readonly attempts: Attempts) {}

  @OnEvent(ItemAdded)
  onItemAdded(event: ItemAdded, ctx: SagaContext) {
    this.attempts.note('receipts', ctx, event.orderId);
    if (event.item === POISON) throw new Error(`no receipt for ${POISON}`);
    return emit(WriteNote, { noteId: `receipt-${event.orderId}-${ctx.envelope.sequence}`, text: event.item });
  }
}

export class ItemCounted {
  constructor(readonly item: string) {}
}

export class RecordRefused {
  constructor(readonly code: string) {}
}

export interface FulfilmentState {
  items: string[];
  refused: string[];
}

/**
 * One instance per order, keyed by the event's `orderId` (not by correlation id). The poison item
 * throws; any other item is counted, and a timer 'label' later ships a label naming the count the
 * step saw (in the timer's payload) and the count now (from its state): a redelivered timer step
 * must send the same label.
 */
@ProcessManager('fulfilment', { startsOn: [ItemAdded], key: 'orderId', maxAttempts: 8 })
export class FulfilmentProcess {
  constructor(private readonly attempts: Attempts) {}

  initialState(): FulfilmentState {
    return { items: [], refused: [] };
  }

  @OnEvent(ItemAdded)
  onItemAdded(event: ItemAdded, ctx: ProcessContext<FulfilmentState>): ProcessReaction {
    this.attempts.note('fulfilment', ctx, event.orderId);
    if (event.item === POISON) throw new Error(`cannot fulfil ${POISON}`);
    const after = ctx.stateAfter(new ItemCounted(event.item));
    return {
      events: [new ItemCounted(event.item)],
      emit: [emit(WriteNote, { noteId: `packed-${ctx.key}-${after.items.length}`, text: event.item })],
      schedule: event.item.startsWith('label') ? [{ name: 'label', afterMs: 10, payload: { items: after.items.length } }] : [],
    };
  }

  @OnTimeout('label')
  onLabel(payload: { items: number }, ctx: ProcessContext<FulfilmentState>): ProcessReaction {
    return { emit: [emit(WriteNote, { noteId: `label-${ctx.key}`, text: `${payload.items} of ${ctx.state.items.length}` })] };
  }

  @OnRejected()
  onRejected(rejection: CommandRejection): ProcessReaction {
    return { events: [new RecordRefused(rejection.code)] };
  }

  @Apply(ItemCounted)
  onCounted(state: FulfilmentState, event: ItemCounted): void {
    state.items.push(event.item);
  }

  @Apply(RecordRefused)
  onRefused(state: FulfilmentState, event: RecordRefused): void {
    state.refused.push(event.code);
  }
}

export const ORDER_WORKFLOW_PROVIDERS = [OrderAggregate, NoteAggregate, Attempts, ReceiptsSaga, FulfilmentProcess];
