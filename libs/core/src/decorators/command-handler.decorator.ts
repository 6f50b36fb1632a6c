import type { Type } from '@nestjs/common';
import { COMMAND_HANDLERS_METADATA } from './constants.js';
import type { CommandHandlerMetadata, CommandHandlerOptions } from './decorator-types.js';
import { pushClassMetadata } from './method-metadata.js';

/**
 * Marks an aggregate method as the handler of `command`. The method gets
 * `(command, state, context)` and returns the events (one, an array, none), or
 * `withSnapshot(events, state)` to have the framework persist a snapshot.
 */
export function CommandHandler(command: Type, options: CommandHandlerOptions): MethodDecorator {
  return (target, propertyKey) => {
    const entry: CommandHandlerMetadata = { command, methodName: String(propertyKey), options };
    pushClassMetadata(COMMAND_HANDLERS_METADATA, target, entry);
  };
}
