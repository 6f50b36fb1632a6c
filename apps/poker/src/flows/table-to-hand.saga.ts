import { type CommandEmission, emit, OnEvent, Saga } from '@nest-es/core';
import { DealCards } from '../hand/index.js';
import { HandStarted } from '../table/index.js';

/** A hand the table starts is dealt at once (the hand flow, keyed by the hand id, follows it from HandStarted). */
@Saga('table-to-hand')
export class TableToHandSaga {
  @OnEvent(HandStarted)
  onHandStarted(event: HandStarted): CommandEmission {
    return emit(DealCards, {
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
