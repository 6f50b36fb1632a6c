import type { Type } from '@nestjs/common';
import { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { CommandHandler as CqrsCommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandGateway } from '../command/command-gateway.js';
import type { CommandResult } from '../model/send-options.js';
import { carriedOptions } from './with-options.js';

/**
 * A @nestjs/cqrs handler for one of our command classes, in the shape `CommandBus.register`
 * takes. Its @CommandHandler gives the command class the id `CommandBus.execute` looks up;
 * executing it is `CommandGateway.send` with the options carried by `withOptions`.
 */
export function forwardingHandler(commandClass: Type, gateway: CommandGateway): InstanceWrapper<ICommandHandler> {
  class Forwarder implements ICommandHandler<object, CommandResult> {
    execute(command: object): Promise<CommandResult> {
      return gateway.send(command, carriedOptions(command));
    }
  }
  // CommandBus names the handler class in its messages.
  Object.defineProperty(Forwarder, 'name', { value: `${commandClass.name}ToAggregate` });
  CqrsCommandHandler(commandClass)(Forwarder);
  return new InstanceWrapper({ name: Forwarder.name, metatype: Forwarder, instance: new Forwarder(), isResolved: true });
}

// @nestjs/cqrs does not export the metadata key its @CommandHandler writes: learn it from the decorator.
class ProbeCommand {}
class ProbeHandler {}
CqrsCommandHandler(ProbeCommand)(ProbeHandler);
const HANDLED_COMMAND_KEY = Reflect.getOwnMetadataKeys(ProbeHandler).find((key) => Reflect.getOwnMetadata(key, ProbeHandler) === ProbeCommand);

/** The command class a @nestjs/cqrs @CommandHandler class handles, if it is one. */
export function cqrsHandledCommand(classRef: Function): Type | undefined {
  return Reflect.getMetadata(HANDLED_COMMAND_KEY, classRef);
}
