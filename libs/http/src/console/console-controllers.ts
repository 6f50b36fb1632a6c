import type { Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import type { EventSourcingHttpOptions } from '../http-options.js';
import { ConsoleEventTypesController } from './console-event-types.controller.js';
import { consolePath } from './console-path.js';
import { ConsoleProjectionsController } from './console-projections.controller.js';
import { ConsoleShellController } from './console-shell.controller.js';
import { ConsoleStreamsController } from './console-streams.controller.js';
import { ConsoleSubscribersController } from './console-subscribers.controller.js';

/** One set per options object: the module lists them, and its framework paths are read from them again. */
const mounted = new WeakMap<EventSourcingHttpOptions, Type[]>();

/**
 * The console's controllers at the configured path: subclasses that carry the path, so that two
 * applications in one process (tests) may mount the console at different paths.
 */
export function consoleControllers(options: EventSourcingHttpOptions): Type[] {
  const path = consolePath(options);
  if (path === undefined) return [];
  let controllers = mounted.get(options);
  if (!controllers) {
    controllers = [
      at(ConsoleShellController, path),
      at(ConsoleSubscribersController, `${path}/api/subscribers`),
      at(ConsoleStreamsController, `${path}/api/streams`),
      at(ConsoleEventTypesController, `${path}/api/event-types`),
      at(ConsoleProjectionsController, `${path}/api/projections`),
    ];
    mounted.set(options, controllers);
  }
  return controllers;
}

function at(base: Type, path: string): Type {
  // A named subclass: Nest inherits the base's routes, guards, filters and constructor parameters.
  const mountedAt = { [base.name]: class extends base {} }[base.name];
  Reflect.defineMetadata(PATH_METADATA, path, mountedAt);
  return mountedAt;
}
