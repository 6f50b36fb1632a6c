import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { UnauthenticatedError } from '@nest-es/core';
import type { FastifyRequest } from 'fastify';
import { PlayerTokens } from './player-tokens.service.js';

/** Requires a valid player token and leaves the player on `request.user`, where the framework looks. */
@Injectable()
export class PlayerAuthGuard implements CanActivate {
  constructor(private readonly tokens: PlayerTokens) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: unknown }>();
    const principal = await this.tokens.principal(request.headers.authorization);
    if (!principal) throw new UnauthenticatedError('sign in first: send Authorization: Bearer <token> (POST /auth/register issues one)');
    request.user = principal;
    return true;
  }
}
