import { AGGREGATE_ID_PROPERTY_METADATA } from './constants.js';

/** Marks the command property that names the target aggregate. */
export function AggregateId(): PropertyDecorator {
  return (target, propertyKey) => {
    Reflect.defineMetadata(AGGREGATE_ID_PROPERTY_METADATA, String(propertyKey), target.constructor);
  };
}
