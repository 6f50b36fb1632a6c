import { RequestMethod, type Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import type { ModuleRef } from '@nestjs/core';

/** The part of Nest's application config read here (reached through ModuleRef: Nest offers no provider of it). */
interface GlobalPrefixConfig {
  getGlobalPrefix(): string;
  getGlobalPrefixOptions(): { exclude?: Array<{ path: string }> };
}

/**
 * The paths the framework's controllers are mounted at (`/commands`, `/health`, ...), under the
 * application's global prefix unless it excludes them. A request is the framework's when its path is
 * one of them or below one, whatever the method, so a CORS preflight and a 404 under them are too.
 * Not followed: a RouterModule path or URI versioning put on the framework's module.
 */
export class FrameworkRoutes {
  private constructor(
    /** Nest's route paths, without the global prefix (Nest adds it to middleware routes itself). */
    readonly paths: readonly string[],
    /** As requests reach them: with the global prefix, lower case (Express routes ignore case). */
    readonly mounts: readonly string[],
  ) {}

  static of(controllers: readonly Type[], moduleRef?: ModuleRef): FrameworkRoutes {
    // Two controllers may share a path (the aggregate reads and their live stream): one mount each.
    const paths = [...new Set(controllers.map((controller) => `/${trimSlashes(String(Reflect.getMetadata(PATH_METADATA, controller)))}`))];
    const config = (moduleRef as unknown as { container?: { applicationConfig?: GlobalPrefixConfig } } | undefined)?.container?.applicationConfig;
    const prefix = trimSlashes(config?.getGlobalPrefix() ?? '');
    const excluded = (config?.getGlobalPrefixOptions().exclude ?? []).map((route) => `/${trimSlashes(route.path)}`);
    const mounts = paths.flatMap((path) => {
      const prefixed = prefix ? `/${prefix}${path}` : path;
      // An exclusion may cover only some routes of a controller: both paths are then the framework's.
      return excluded.some((route) => route === path || route.startsWith(`${path}/`)) ? [prefixed, path] : [prefixed];
    });
    return new FrameworkRoutes(paths, [...new Set(mounts.map((mount) => mount.toLowerCase()))]);
  }

  /** True for a request URL (or a route pattern) at or below one of the mounts. */
  covers(url: string): boolean {
    const end = url.search(/[?#]/);
    const path = (end < 0 ? url : url.slice(0, end)).toLowerCase();
    return this.mounts.some((mount) => path === mount || (path.startsWith(mount) && path[mount.length] === '/'));
  }

  /** For `MiddlewareConsumer.forRoutes`: each mount and everything below it, every method. */
  routeInfos(): Array<{ path: string; method: RequestMethod }> {
    return this.paths.flatMap((path) => [
      { path, method: RequestMethod.ALL },
      { path: `${path}/{*rest}`, method: RequestMethod.ALL },
    ]);
  }
}

function trimSlashes(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}
