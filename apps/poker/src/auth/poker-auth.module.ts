import { createSecretKey, randomBytes } from 'node:crypto';
import { type DynamicModule, Global, Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { AdminTokenGuard } from './admin-token.guard.js';
import { DEFAULT_TOKEN_TTL_SECONDS, POKER_AUTH_OPTIONS, type PokerAuthOptions } from './poker-auth-options.js';
import { PokerCommandAuthorizer } from './poker-command.authorizer.js';
import { PlayerAuthGuard } from './player-auth.guard.js';
import { PlayerTokens } from './player-tokens.service.js';

/** Player tokens and the guards, global so the framework's module can resolve its guards and authorizer here. */
@Global()
@Module({})
export class PokerAuthModule {
  static forRoot(options: PokerAuthOptions): DynamicModule {
    // A key object, made once: given the string, jsonwebtoken first tries it as a PEM key on every
    // sign and verify, and only then as an HMAC secret (the same bytes), which costs about 0.4 ms a request.
    const secret = createSecretKey(Buffer.from(options.secret ?? randomBytes(32).toString('base64url')));
    return {
      module: PokerAuthModule,
      imports: [JwtModule.register({ secret, signOptions: { algorithm: 'HS256', expiresIn: options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS } })],
      providers: [{ provide: POKER_AUTH_OPTIONS, useValue: options }, PlayerTokens, PlayerAuthGuard, AdminTokenGuard, PokerCommandAuthorizer],
      exports: [POKER_AUTH_OPTIONS, PlayerTokens, PlayerAuthGuard, AdminTokenGuard, PokerCommandAuthorizer],
    };
  }
}
