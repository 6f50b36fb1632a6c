import { Injectable } from '@nestjs/common';
import { MERGE_INTERCEPTOR_METADATA } from './constants.js';

/**
 * Registers a provider implementing `MergeInterceptor` as the merge strategy `name`
 * (case-insensitive), to be chosen like the built-ins: `@Aggregate(type, {mergeStrategy: name})`,
 * `@CommandHandler(cmd, {mergeStrategy: name})`, `send(cmd, {mergeStrategy: name})` or the
 * `Merge-Strategy` header. The class must also be listed in a module's providers.
 */
export function MergeStrategyInterceptor(name: string): ClassDecorator {
  return (target) => {
    Injectable()(target);
    Reflect.defineMetadata(MERGE_INTERCEPTOR_METADATA, name.trim().toLowerCase(), target);
  };
}

export function mergeInterceptorNameOf(classRef: Function): string | undefined {
  return Reflect.getMetadata(MERGE_INTERCEPTOR_METADATA, classRef);
}
