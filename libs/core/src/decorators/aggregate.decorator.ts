import { Injectable } from '@nestjs/common';
import { AGGREGATE_METADATA } from './constants.js';
import type { AggregateMetadata, AggregateOptions } from './decorator-types.js';

/**
 * Marks a class as an event-sourced aggregate named `type` (the wire name, e.g. 'player').
 * The class is a Nest provider: it holds no state itself; it implements `initialState()`
 * and its `@CommandHandler` / `@Apply` methods work on the state it is given.
 */
export function Aggregate(type: string, options: AggregateOptions = {}): ClassDecorator {
  return (target) => {
    Injectable()(target);
    const metadata: AggregateMetadata = { type, options };
    Reflect.defineMetadata(AGGREGATE_METADATA, metadata, target);
  };
}
