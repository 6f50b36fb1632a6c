import { Injectable, type Type } from '@nestjs/common';
import { AGGREGATE_METADATA, COMMAND_HANDLERS_METADATA } from '../decorators/constants.js';
import type { AggregateMetadata, CommandHandlerMetadata } from '../decorators/decorator-types.js';

/**
 * The aggregate with every command routable over HTTP and state and events readable whole, for
 * suites that drive the generic HTTP contract with an application's aggregate. A subclass under
 * the same name: the application's own class keeps what it exposes.
 */
export function exposedForTests<T extends Type>(aggregate: T): T {
  const exposed = { [aggregate.name]: class extends aggregate {} }[aggregate.name];
  const metadata: AggregateMetadata = Reflect.getMetadata(AGGREGATE_METADATA, aggregate);
  const handlers: CommandHandlerMetadata[] = Reflect.getMetadata(COMMAND_HANDLERS_METADATA, aggregate) ?? [];
  Reflect.defineMetadata(AGGREGATE_METADATA, { ...metadata, options: { ...metadata.options, view: true } }, exposed);
  Reflect.defineMetadata(COMMAND_HANDLERS_METADATA, handlers.map((handler) => ({ ...handler, options: { ...handler.options, http: true } })), exposed);
  Injectable()(exposed);
  return exposed;
}
