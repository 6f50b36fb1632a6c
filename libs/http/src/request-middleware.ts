import type { IncomingMessage, ServerResponse } from 'node:http';

/** Connect-style middleware, as helmet and cors are: it calls `next` to go on, or ends the response. */
export type RequestMiddleware = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

/** Fastify's instance, as far as adding a request hook goes (typed here: Fastify stays an optional peer). */
interface FastifyHooks {
  addHook(name: 'onRequest', hook: (request: { raw: IncomingMessage }, reply: { raw: ServerResponse }, done: (error?: unknown) => void) => void): unknown;
}

/**
 * Runs the middleware in a Fastify `onRequest` hook on Node's request and response, in order, as Nest
 * would through @fastify/middie, without that Express-compatible layer's work per request. A
 * middleware that ends the response (a CORS preflight) ends the request there, as under middie.
 */
export function runInFastifyHook(fastify: unknown, middleware: readonly RequestMiddleware[]): void {
  (fastify as FastifyHooks).addHook('onRequest', (request, reply, done) => {
    let index = 0;
    const next = (error?: unknown): void => {
      if (error !== undefined && error !== null) return done(error);
      const current = middleware[index++];
      if (current) current(request.raw, reply.raw, next);
      else done();
    };
    next();
  });
}
