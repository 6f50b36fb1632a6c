import type { Type } from '@nestjs/common';

/** A command class's data properties (its methods left out), as `emit` and `CommandGateway.send` take them. */
export type CommandFields<C> = { [K in keyof C as C[K] extends (...args: never[]) => unknown ? never : K]: C[K] };

/** `new type()` with `fields` set: how a command is built from its class and its data. */
export function buildCommand<C extends object>(type: Type<C>, fields: CommandFields<C>): C {
  return Object.assign(new type(), fields);
}
