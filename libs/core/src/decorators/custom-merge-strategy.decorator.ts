import { Injectable } from '@nestjs/common';
import { CUSTOM_MERGE_STRATEGY_METADATA } from './constants.js';

/**
 * Registers a provider implementing `MergeStrategyHandler` as the merge strategy `name`
 * (case-insensitive), to be chosen like the built-ins: `@Aggregate(type, {mergeStrategy: name})`,
 * `@CommandHandler(cmd, {mergeStrategy: name})`, `send(cmd, {mergeStrategy: name})` or the
 * `Merge-Strategy` header. The class must also be listed in a module's providers.
 */
export function CustomMergeStrategy(name: string): ClassDecorator {
  return (target) => {
    Injectable()(target);
    Reflect.defineMetadata(CUSTOM_MERGE_STRATEGY_METADATA, name.trim().toLowerCase(), target);
  };
}

export function customMergeStrategyNameOf(classRef: Function): string | undefined {
  return Reflect.getMetadata(CUSTOM_MERGE_STRATEGY_METADATA, classRef);
}
