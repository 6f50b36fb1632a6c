import { MERGE_HANDLER_METADATA } from './constants.js';

/**
 * Marks the aggregate method that resolves conflicts under the AGGREGATE_HANDLES strategy:
 * `(command, expectedState, actualState, context) => proceed(events) | reject(reason)`.
 */
export function MergeHandler(): MethodDecorator {
  return (target, propertyKey) => {
    Reflect.defineMetadata(MERGE_HANDLER_METADATA, String(propertyKey), target.constructor);
  };
}
