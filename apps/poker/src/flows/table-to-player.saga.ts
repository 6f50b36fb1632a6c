import { type CommandEmission, emit, OnEvent, Saga, type SagaContext } from '@nest-es/core';
import { SettleTableSession } from '../player/index.js';
import { PlayerLeft } from '../table/index.js';

/** Leaving a table settles the session: the chips cashed out replace the reservation in the bankroll. */
@Saga('table-to-player')
export class TableToPlayerSaga {
  @OnEvent(PlayerLeft)
  onPlayerLeft(event: PlayerLeft, { envelope }: SagaContext): CommandEmission {
    return emit(SettleTableSession, { playerId: event.playerId, tableId: envelope.aggregateId, cashOut: event.chipsCashedOut });
  }
}
