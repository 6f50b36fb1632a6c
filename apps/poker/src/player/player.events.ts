import type { PlayerType } from './player.commands.js';

export class PlayerRegistered {
  constructor(
    readonly displayName: string,
    readonly email: string,
    readonly playerType: PlayerType,
  ) {}
}

export class PlayerRenamed {
  constructor(readonly displayName: string) {}
}

export class FundsDeposited {
  constructor(
    readonly amount: number,
    readonly newBalance: number,
  ) {}
}

export class FundsWithdrawn {
  constructor(
    readonly amount: number,
    readonly newBalance: number,
  ) {}
}

export class FundsReserved {
  constructor(
    readonly amount: number,
    readonly tableId: string,
    readonly newAvailableBalance: number,
  ) {}
}

export class FundsReleased {
  constructor(
    readonly amount: number,
    readonly tableId: string,
    readonly newAvailableBalance: number,
  ) {}
}

export class SessionSettled {
  constructor(
    readonly tableId: string,
    readonly reserved: number,
    readonly cashOut: number,
    readonly newBalance: number,
  ) {}
}

export class PlayerSittingOut {
  constructor(readonly tableIds: string[]) {}
}

export class PlayerReturningToPlay {
  constructor(readonly tableIds: string[]) {}
}
