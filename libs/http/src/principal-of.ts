import type { Principal } from '@nest-es/core';

/** Reads the principal a guard left on the request; anything without a string id is no principal. */
export function principalOf(request: object): Principal | undefined {
  const user = (request as { user?: Partial<Principal> }).user;
  return user && typeof user === 'object' && typeof user.id === 'string' ? (user as Principal) : undefined;
}
