import { CommandGateway, SyncMode } from '@nest-es/core';
import { DepositFunds, RegisterPlayer } from './player.aggregate.js';

export async function registerAndDeposit(gateway: CommandGateway) {
  await gateway.send(Object.assign(new RegisterPlayer(), { playerId: 'alice', displayName: 'Alice' }));
  // Resolves to { aggregateType: 'player', aggregateId: 'alice', sequence: 2, events: [...], commandId: 'deposit-1', duplicate: false }
  return gateway.send(Object.assign(new DepositFunds(), { playerId: 'alice', amount: 500 }), {
    commandId: 'deposit-1', // a repeat returns the first result and appends nothing
    syncMode: SyncMode.SIMPLE, // resolves once the balances projector has seen the deposit
  });
}
