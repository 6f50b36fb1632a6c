import type { IncomingMessage, ServerResponse } from 'node:http';

/** Connect-style middleware, as helmet and cors are: it calls `next` to go on, or ends the response. */
export type RequestMiddleware = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

/** Fastify's instance, as far as adding a request hook goes (typed here: Fastify stays an optional peer). */
interface FastifyHooks {
  addHook(name: 'onRequest', hook: (request: { raw: IncomingMessage }, reply: { raw: ServerResponse }, done: (error?: unknown) => void) => void): unknown;
}

/**
 * Runs the middleware in order on Node's request and response, then `done`, as Nest would through
 * @fastify/middie, without that Express-compatible layer's work per request. A middleware that ends
 * the response (a CORS preflight) ends the request there, as under middie: `done` is not called.
 */
export function runMiddleware(middleware: readonly RequestMiddleware[], request: IncomingMessage, response: ServerResponse, done: (error?: unknown) => void): void {
  let index = 0;
  const next = (error?: unknown): void => {
    if (error !== undefined && error !== null) return done(error);
    const current = middleware[index++];
    if (current) current(request, response, next);
    else done();
  };
  next();
}

/** The middleware in a Fastify `onRequest` hook for every request (the `appWide` option). */
export function runInFastifyHook(fastify: unknown, middleware: readonly RequestMiddleware[]): void {
  (fastify as FastifyHooks).addHook('onRequest', (request, reply, done) => runMiddleware(middleware, request.raw, reply.raw, done));
}
