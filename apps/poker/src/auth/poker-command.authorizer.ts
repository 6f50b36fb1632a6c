import { Inject, Injectable } from '@nestjs/common';
import { type CommandAuthorization, type CommandAuthorizer, PermissionDeniedError } from '@nest-es/core';
import type { TableState } from '../table/index.js';
import { POKER_AUTH_OPTIONS, type PokerAuthOptions } from './poker-auth-options.js';

/** The fields the rules look at; each command has the ones its rule reads. */
type PokerCommand = { playerId?: string; seed?: string };
type Rule = (request: CommandAuthorization<unknown, PokerCommand>, options: PokerAuthOptions) => boolean;

const actsAsThemselves: Rule = ({ principal, command }) => command.playerId === principal?.id;
const ownPlayer: Rule = ({ principal, aggregateId }) => aggregateId === principal?.id;

/**
 * Who may send which exposed command. Every rule needs a signed-in player (the guard has made
 * sure of that); chips move only through the buy-in route and the app's own flows.
 */
const RULES: Record<string, Rule> = {
  RenamePlayer: ownPlayer,
  WithdrawFunds: ownPlayer,
  SitOut: ownPlayer,
  SitIn: ownPlayer,
  CreateTable: ({ principal }) => principal !== undefined,
  LeaveTable: actsAsThemselves,
  StartHand: ({ principal, state, command }, options) => {
    if (command.seed !== undefined && !options.seededDeals) throw new PermissionDeniedError('StartHand may not choose the deck here: seeded deals are off');
    return Object.values((state as TableState).seats).some((seat) => seat.playerId === principal?.id);
  },
  PlayerAction: actsAsThemselves,
  RequestDraw: actsAsThemselves,
  RevealCards: actsAsThemselves,
};

/** The poker app's command authorizer: a player acts only as themselves, and only where they sit. */
@Injectable()
export class PokerCommandAuthorizer implements CommandAuthorizer {
  constructor(@Inject(POKER_AUTH_OPTIONS) private readonly options: PokerAuthOptions) {}

  authorize(request: CommandAuthorization): boolean {
    const rule = RULES[request.commandType];
    return rule !== undefined && rule(request as CommandAuthorization<unknown, PokerCommand>, this.options);
  }
}
