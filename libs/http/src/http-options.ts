import type { CanActivate, Type } from '@nestjs/common';
import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface.js';
import type { HelmetOptions } from 'helmet';
import type { CommandAuthorizer } from '@nest-es/core/internal';

/** A Nest guard class (resolved from the application's providers, or created) or instance. */
export type GuardOption = Type<CanActivate> | CanActivate;

export interface EventSourcingHttpOptions {
  /**
   * Run before the command and aggregate routes, after any global `APP_GUARD`. A guard that
   * authenticates leaves the principal on `request.user` (`{id, ...claims}`).
   */
  guards?: GuardOption[];
  /** Allows or refuses each command sent over HTTP, given principal, command, aggregate and state. */
  authorizer?: Type<CommandAuthorizer>;
  /** Mount `GET /aggregates/:type/:id` (and `/events`) for aggregates that declare a `view`. Default false. */
  aggregateReads?: boolean;
  /** Guards the dead-letter routes; without one they are not mounted. */
  adminGuard?: GuardOption;
  /** Security headers (helmet's options); false leaves them to the application. Default helmet's defaults. */
  helmet?: HelmetOptions | false;
  /** Cross-origin requests allowed by these rules (the `cors` package's options). Default: none allowed. */
  cors?: CorsOptions;
}

export const EVENT_SOURCING_HTTP_OPTIONS = Symbol('EVENT_SOURCING_HTTP_OPTIONS');
