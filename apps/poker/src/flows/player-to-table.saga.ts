import { fact, type FactEmission, OnEvent, Saga, type SagaContext } from '@nest-es/core';
import { PlayerReturningToPlay, PlayerSittingOut } from '../player/index.js';
import { PlayerSatIn, PlayerSatOut } from '../table/index.js';

/**
 * A player sitting out (or back in) is a fact for every table they sit at: the table cannot refuse
 * it. The external id is the player's event, so a redelivery appends nothing twice.
 */
@Saga('player-to-table')
export class PlayerToTableSaga {
  @OnEvent(PlayerSittingOut)
  onSittingOut(event: PlayerSittingOut, { envelope }: SagaContext): FactEmission[] {
    return event.tableIds.map((tableId) => fact('table', tableId, new PlayerSatOut(envelope.aggregateId), envelope.metadata.eventId));
  }

  @OnEvent(PlayerReturningToPlay)
  onReturning(event: PlayerReturningToPlay, { envelope }: SagaContext): FactEmission[] {
    return event.tableIds.map((tableId) => fact('table', tableId, new PlayerSatIn(envelope.aggregateId), envelope.metadata.eventId));
  }
}
