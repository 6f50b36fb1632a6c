import type { SendOptions } from '../model/send-options.js';

/** Kept beside the command, not on it: the command's own fields stay exactly what the aggregate sees. */
const carried = new WeakMap<object, SendOptions>();

/**
 * Lets gateway options ride on a command sent through @nestjs/cqrs's CommandBus:
 * `commandBus.execute(withOptions(new DepositFunds(...), { expectedSequence: 3 }))`.
 */
export function withOptions<C extends object>(command: C, options: SendOptions): C {
  carried.set(command, options);
  return command;
}

export function carriedOptions(command: object): SendOptions {
  return carried.get(command) ?? {};
}
