import { OnEvent, Saga } from '@nest-es/core';
import { DealCards } from '../hand/index.js';
import { HandStarted } from '../table/index.js';

/** A hand the table starts is dealt at once; the correlation id (the hand flow's key) carries over. */
@Saga('table-to-hand')
export class TableToHandSaga {
  @OnEvent(HandStarted)
  onHandStarted(event: HandStarted): DealCards {
    return Object.assign(new DealCards(), {
      handId: event.handId,
      tableId: event.tableId,
      handNumber: event.handNumber,
      variant: event.variant,
      players: event.players,
      dealerPosition: event.dealerPosition,
      smallBlind: event.smallBlind,
      bigBlind: event.bigBlind,
      seed: event.deckSeed ?? undefined,
    });
  }
}
