import type { Type } from '@nestjs/common';
import { APPLIERS_METADATA } from './constants.js';
import type { ApplierMetadata } from './decorator-types.js';
import { pushClassMetadata } from './method-metadata.js';

/**
 * Marks an aggregate method as the state evolution for `event`: `(state, event) => state | void`.
 * It may mutate `state` in place (fastest) or return a new one. During replay `event` is the
 * stored payload (a plain object of the event's shape), not a class instance.
 */
export function Apply(event: Type): MethodDecorator {
  return (target, propertyKey) => {
    const entry: ApplierMetadata = { event, methodName: String(propertyKey) };
    pushClassMetadata(APPLIERS_METADATA, target, entry);
  };
}
