import { createHash, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { PermissionDeniedError, UnauthenticatedError } from '@nest-es/core';
import type { FastifyRequest } from 'fastify';
import { POKER_AUTH_OPTIONS, type PokerAuthOptions } from './poker-auth-options.js';

/**
 * The operator's guard for the dead-letter routes: `Authorization: Bearer <adminToken>`. The app
 * mounts those routes only when an admin token is configured (POKER_ADMIN_TOKEN).
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer | undefined;

  constructor(@Inject(POKER_AUTH_OPTIONS) options: PokerAuthOptions) {
    this.expected = options.adminToken ? digest(options.adminToken) : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization;
    if (!header) throw new UnauthenticatedError('the dead-letter routes need the operator token');
    // Digests have one length, so the comparison takes the same time whatever was sent.
    if (!this.expected || !timingSafeEqual(digest(header.replace(/^bearer\s+/i, '')), this.expected)) throw new PermissionDeniedError('only the operator may review dead letters');
    return true;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
