import { endpoint } from '#lib/http/endpoint.ts';
import { sourceAddress } from '#lib/http/request.ts';
import { created } from '#lib/http/respond.ts';
import { signUp } from '#lib/users/signup.ts';

/** POST /users: public sign-up; a new account and its first token. Limited per source address. */
export const handler = endpoint({
  auth: 'none',
  handler: async (request) => created(await signUp(request.body, sourceAddress(request))),
});
