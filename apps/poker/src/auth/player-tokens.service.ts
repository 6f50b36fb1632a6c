import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { type Principal, UnauthenticatedError } from '@nest-es/core';

/** The principal of a player: the player id, and whether the player is a bot. */
export interface PlayerPrincipal extends Principal {
  playerType: 'HUMAN' | 'AI';
}

export interface IssuedToken {
  token: string;
  expiresAt: string;
}

/**
 * Player tokens: JWTs signed with the app's secret (HS256), subject = player id. They are sent as
 * `Authorization: Bearer <token>`, never as a cookie, so a cross-site request cannot carry one.
 */
@Injectable()
export class PlayerTokens {
  constructor(private readonly jwt: JwtService) {}

  async issue(playerId: string, playerType: PlayerPrincipal['playerType']): Promise<IssuedToken> {
    const token = await this.jwt.signAsync({ sub: playerId, playerType });
    const { exp } = this.jwt.decode<{ exp: number }>(token);
    return { token, expiresAt: new Date(exp * 1000).toISOString() };
  }

  /** The principal of an `Authorization` header; undefined without one, UNAUTHENTICATED for a bad one. */
  async principal(authorization: string | undefined): Promise<PlayerPrincipal | undefined> {
    if (authorization === undefined) return undefined;
    const [scheme, token] = authorization.split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token) throw new UnauthenticatedError('the Authorization header must be "Bearer <token>"');
    try {
      const claims = await this.jwt.verifyAsync<{ sub?: unknown; playerType?: unknown }>(token, { algorithms: ['HS256'] });
      if (typeof claims.sub !== 'string') throw new Error('no subject');
      return { id: claims.sub, playerType: claims.playerType === 'AI' ? 'AI' : 'HUMAN' };
    } catch (error) {
      const expired = (error as { name?: string }).name === 'TokenExpiredError';
      throw new UnauthenticatedError(expired ? 'the token has expired; sign in again' : 'the token is not valid');
    }
  }
}
