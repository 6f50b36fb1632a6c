import { maxHeaderSize } from 'node:http';
import { toErrorBody } from './error-body.js';

/** The part of Fastify's reply that `frameworkErrors` uses (typed loosely: Fastify stays an optional peer). */
interface ReplySender {
  code(statusCode: number): { send(payload: unknown): unknown };
}

/**
 * Options for Nest's `FastifyAdapter` that give the framework's routes the contract they have on
 * Express: JSON bodies up to 100 kB (Express's default; Fastify's is 1 MiB); path parameters of any
 * length the request line can carry (Fastify answers 414 past 100 characters), so an over-long
 * aggregate id gets the same coded 400; and URLs Fastify cannot decode answered with the coded error
 * body instead of Fastify's own. And a close that does not hang: once a server-sent event stream (a
 * hijacked reply) has been on a server, Fastify counts the keep-alive connections of later requests
 * as busy and its close waits for them for ever; so the connections are closed instead, once
 * `RequestsInFlight` has let the requests in flight be answered. Spread your own options over them.
 */
export const FASTIFY_ADAPTER_OPTIONS = {
  bodyLimit: 100 * 1024,
  forceCloseConnections: true,
  routerOptions: { maxParamLength: maxHeaderSize },
  frameworkErrors: (error: Error, _request: unknown, reply: object): void => {
    const body = toErrorBody(error);
    (reply as ReplySender).code(body.statusCode).send(body);
  },
};
