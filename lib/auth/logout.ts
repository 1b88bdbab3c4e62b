import { NotAuthenticated } from '#lib/errors.ts';
import { tokenFromHeader } from './authenticate.ts';
import { revokeToken } from './tokens.ts';

/** Revokes the token of an Authorization header; 401 when there is no live token to revoke. */
export async function logout(authorization: string | undefined): Promise<void> {
  const token = tokenFromHeader(authorization);
  if (token === null || !(await revokeToken(token))) throw new NotAuthenticated('You are not logged in!');
}
