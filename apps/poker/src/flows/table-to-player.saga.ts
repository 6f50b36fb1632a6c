import { type CommandEmission, emit, OnEvent, Saga, type SagaContext } from '@nest-es/core';
import { SettleTableSession } from '../player/index.js';
import { PlayerLeft } from '../table/index.js';

/**
 * Leaving a table settles the session: the chips cashed out replace, in the bankroll, what the player
 * brought to the table (a top-up still on its way stays reserved until its flow ends).
 */
@Saga('table-to-player')
export class TableToPlayerSaga {
  @OnEvent(PlayerLeft)
  onPlayerLeft(event: PlayerLeft, { envelope }: SagaContext): CommandEmission {
    const boughtIn = event.boughtIn === undefined ? {} : { boughtIn: event.boughtIn };
    return emit(SettleTableSession, { playerId: event.playerId, tableId: envelope.aggregateId, cashOut: event.chipsCashedOut, ...boughtIn });
  }
}
