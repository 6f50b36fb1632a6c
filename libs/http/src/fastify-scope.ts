import { NotFoundException } from '@nestjs/common';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { FrameworkRoutes } from './framework-routes.js';
import { type RequestMiddleware, runMiddleware } from './request-middleware.js';

/** What is read of Fastify's request and reply (typed here: Fastify stays an optional peer). */
interface FastifyRequestLike {
  raw: IncomingMessage;
  headers: IncomingHttpHeaders;
  url: string;
  method: string;
  is404: boolean;
  params: unknown;
}
type ErrorAnswer = (error: unknown, request: FastifyRequestLike, reply: unknown) => void;
interface FastifyRouteOptions {
  url: string;
  errorHandler?: (error: unknown, request: FastifyRequestLike, reply: unknown) => void;
}
interface FastifyScopeHooks {
  addHook(name: 'onRoute', hook: (route: FastifyRouteOptions) => void): unknown;
  addHook(name: 'onRequest', hook: (request: FastifyRequestLike, reply: { raw: ServerResponse }, done: (error?: unknown) => void) => void): unknown;
}

/**
 * On Fastify, the framework's middleware and error answers for requests under its paths only.
 * Decided by path in one `onRequest` hook (a CORS preflight and a 404 have no route of the
 * framework's to carry a route-level hook); other requests pass after a comparison of their path.
 * Where Nest's global handlers would answer a request under those paths (a path no route serves, an
 * empty route parameter Nest sends to its 404 handler, a body the content-type parsers refuse), the
 * framework's error body answers instead, so its routes keep their contract without a global filter.
 */
export function scopeToFrameworkOnFastify(fastify: unknown, routes: FrameworkRoutes, middleware: readonly RequestMiddleware[], answer: ErrorAnswer): void {
  const instance = fastify as FastifyScopeHooks;
  instance.addHook('onRoute', (route) => {
    if (routes.covers(route.url)) route.errorHandler ??= answer;
  });
  instance.addHook('onRequest', (request, reply, done) => {
    if (!routes.covers(request.url)) return done();
    runMiddleware(middleware, request.raw, reply.raw, (error) => {
      if (error !== undefined && error !== null) return done(error);
      if (request.is404 || hasEmptyParameter(request.params)) answer(new NotFoundException(`Cannot ${request.method} ${request.url}`), request, reply);
      else done();
    });
  });
}

/** Nest's Fastify adapter sends a route whose parameter is empty (`/commands/a//b`) to its 404 handler, as Express finds no route. */
function hasEmptyParameter(params: unknown): boolean {
  return Object.entries((params ?? {}) as Record<string, unknown>).some(([name, value]) => value === '' && name !== '*');
}
