import { OnEvent, Saga, type StoredEvent } from '@nest-es/core';
import { SettleTableSession } from '../player/index.js';
import { PlayerLeft } from '../table/index.js';

/** Leaving a table settles the session: the chips cashed out replace the reservation in the bankroll. */
@Saga('table-to-player')
export class TableToPlayerSaga {
  @OnEvent(PlayerLeft)
  onPlayerLeft(event: PlayerLeft, envelope: StoredEvent): SettleTableSession {
    return Object.assign(new SettleTableSession(), { playerId: event.playerId, tableId: envelope.aggregateId, cashOut: event.chipsCashedOut });
  }
}
