import { type CommandEmission, emit, OnEvent, Saga } from '@nest-es/core';
import { HandComplete } from '../hand/index.js';
import { EndHand } from '../table/index.js';

/** A finished hand moves its chips back onto the table's stacks and frees the table for the next one. */
@Saga('hand-to-table')
export class HandToTableSaga {
  @OnEvent(HandComplete)
  onHandComplete(event: HandComplete): CommandEmission {
    return emit(EndHand, { tableId: event.tableId, handId: event.handId, stackChanges: event.stackChanges });
  }
}
