import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler, EventsHandler, ofType, Saga, type ICommandHandler, type IEventHandler } from '@nestjs/cqrs';
import { map, type Observable } from 'rxjs';
import { EVENT_STORE, type EventStore } from '@nest-es/core';
import { storedEventOf } from '@nest-es/core/cqrs';
import { FundsDeposited, WalletAssigned, WalletWatched } from './wallet.domain.js';

/* The @nestjs/cqrs side of the bridge suite: a command only @nestjs/cqrs handles, an ofType saga
   and an @EventsHandler, written exactly as an app on @nestjs/cqrs alone would write them. */

export class SendReceipt {
  constructor(
    readonly walletId: string,
    readonly amount: number,
  ) {}
}

@Injectable()
export class Receipts {
  readonly sent: SendReceipt[] = [];
}

@CommandHandler(SendReceipt)
export class SendReceiptHandler implements ICommandHandler<SendReceipt, string> {
  constructor(private readonly receipts: Receipts) {}

  async execute(command: SendReceipt): Promise<string> {
    this.receipts.sent.push(command);
    return `receipt for ${command.walletId}`;
  }
}

@Injectable()
export class ReceiptSaga {
  @Saga()
  receipts = (events$: Observable<object>): Observable<SendReceipt> =>
    events$.pipe(
      ofType(FundsDeposited),
      map((event) => new SendReceipt(storedEventOf(event)?.aggregateId ?? 'unknown', event.amount)),
    );
}

/** What the handler got, and whether the store already held that event when the handler ran. */
export interface Sighting {
  event: object;
  inStoreWhenHandled: boolean;
}

@EventsHandler(FundsDeposited, WalletAssigned, WalletWatched)
export class StoredEventAudit implements IEventHandler<object> {
  readonly seen: Sighting[] = [];

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async handle(event: object): Promise<void> {
    const stored = storedEventOf(event);
    const stream = stored ? await this.store.readStream({ aggregateType: stored.aggregateType, aggregateId: stored.aggregateId }) : [];
    this.seen.push({ event, inStoreWhenHandled: stream.some((candidate) => candidate.metadata.eventId === stored?.metadata.eventId) });
  }
}

export const WALLET_CQRS_PROVIDERS = [Receipts, SendReceiptHandler, ReceiptSaga, StoredEventAudit];
