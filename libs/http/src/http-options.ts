import type { CanActivate, Type } from '@nestjs/common';
import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface.js';
import type { HelmetOptions } from 'helmet';
import type { CommandAuthorizer } from '@nest-es/core';

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
  /**
   * Mount `GET /aggregates/:type/:id`, `/events` and `/events/live` (server-sent events) for aggregates
   * that declare a `view`. Default false.
   */
  aggregateReads?: boolean;
  /** Limits and timings of the live event streams (`/events/live`, mounted with `aggregateReads`). */
  live?: LiveEventsOptions;
  /** Guards the dead-letter routes and the operator console; without one they are not mounted. */
  adminGuard?: GuardOption;
  /**
   * The operator console: a web page at `path` and its JSON routes under `path/api`, every one of
   * them behind `adminGuard` (the boot fails when `console` is given without one). Default: not mounted.
   */
  console?: ConsoleOptions;
  /** Security headers (helmet's options); false leaves them to the application. Default helmet's defaults. */
  helmet?: HelmetOptions | false;
  /** Cross-origin requests allowed by these rules (the `cors` package's options). Default: none allowed. */
  cors?: CorsOptions;
  /**
   * Extend the framework's HTTP behaviour from its own routes to the whole application. Default
   * false: the error body `{statusCode, code, message}`, the security headers, the CORS policy and
   * the `traceparent` continuation apply only to requests under the framework's paths (`/commands`,
   * `/aggregates`, `/dead-letters`, `/health`, `/metrics`, the console's path, under the global prefix), and the app's
   * own routes answer exactly as without this module. True: the error filter is global (`APP_FILTER`:
   * every route's errors, 404s and body parser errors get the coded body), the headers, CORS and trace
   * context apply to every request, and requests Node refuses before any route (oversized headers,
   * malformed HTTP, header timeouts) get the coded body, answered before any other 'clientError' listener.
   */
  appWide?: boolean;
}

/** Where the operator console is served. */
export interface ConsoleOptions {
  /** The page's path (under the global prefix), its JSON routes below it at `path/api`. Default '/console'. */
  path?: string;
}

/** The live event streams of `GET /aggregates/:type/:id/events/live`; every field optional. */
export interface LiveEventsOptions {
  /** Open live streams one process serves at most; one more is answered 503 with Retry-After. Default 1000. */
  maxStreams?: number;
  /** A comment line is sent this often on every stream, so proxies and load balancers keep it open. Default 15000 ms. */
  heartbeatMs?: number;
  /**
   * How often the process looks for new events when nothing woke it: the only way to learn of other
   * instances' commits on a store without a wake channel (SQLite), the backstop for a lost wake-up on
   * one with (PostgreSQL). One cheap query per process when nothing changed. Default 1000 ms.
   */
  pollMs?: number;
}

export const EVENT_SOURCING_HTTP_OPTIONS = Symbol('EVENT_SOURCING_HTTP_OPTIONS');
