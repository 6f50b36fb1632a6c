import type { Principal } from './principal.js';

/** What a command authorizer decides on: who, what, where, and the state the command would be decided on. */
export interface CommandAuthorization<State = unknown, Command extends object = object> {
  /** Undefined when no guard authenticated the caller. */
  principal: Principal | undefined;
  command: Command;
  commandType: string;
  aggregateType: string;
  aggregateId: string;
  /** The aggregate's sequence (0 = no events yet) and its state at that sequence. */
  sequence: number;
  state: State;
}

/**
 * Allows or refuses a command sent by an outside caller (HTTP, or code that passes a principal).
 * `false` refuses it: PERMISSION_DENIED, or UNAUTHENTICATED when there is no principal. Throwing an
 * error of the framework refuses it with that error. Commands of sagas and process managers are the
 * application's own and are not asked about. It runs in the aggregate's lane, before the handler.
 */
export interface CommandAuthorizer {
  authorize(request: CommandAuthorization): boolean | Promise<boolean>;
}

/** The module's command authorizer (from the `http.authorizer` option), if any. */
export const COMMAND_AUTHORIZER = Symbol('COMMAND_AUTHORIZER');
