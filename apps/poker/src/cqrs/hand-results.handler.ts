import { Logger } from '@nestjs/common';
import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { storedEventOf } from '@nest-es/core/cqrs';
import { HandComplete } from '../hand/index.js';

/** A plain @nestjs/cqrs event handler: the bridge publishes each stored HandComplete on the EventBus. */
@EventsHandler(HandComplete)
export class HandResultsHandler implements IEventHandler<HandComplete> {
  private readonly logger = new Logger('HandResults');

  handle(event: HandComplete): void {
    const changes = Object.entries(event.stackChanges).map(([playerId, change]) => `${playerId} ${change >= 0 ? '+' : ''}${change}`);
    this.logger.log(`table ${event.tableId} hand ${event.handId} (event #${storedEventOf(event)?.position}): ${changes.join(', ')}`);
  }
}
